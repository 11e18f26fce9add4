/// Bits written least significant first to memory, through a 64-bit buffer. The caller has
/// made room for everything written (``RunLengthDeflate/bound(_:)``).
struct BitWriter {
    private var buffer: UInt64 = 0
    private var count = 0
    private var start: UnsafeMutableRawPointer?
    private var next: UnsafeMutableRawPointer?

    init() {}

    init(_ start: UnsafeMutableRawPointer) {
        self.start = start
        next = start
    }

    /// Bytes written so far (whole bytes: ``alignToByte()`` first to count them all).
    var written: Int { next! - start! }

    /// The `length` low bits of `value` (at most 32).
    @inline(__always)
    mutating func bits(_ value: UInt32, _ length: Int) {
        buffer |= UInt64(value) << UInt64(count)
        count += length
        if count >= 32 {
            next!.storeBytes(of: UInt32(truncatingIfNeeded: buffer).littleEndian, as: UInt32.self)
            next! += 4
            buffer >>= 32
            count -= 32
        }
    }

    /// The `length` low bits of `value` (at most 56), without a branch: the whole buffer is
    /// stored each time and the pointer moves on by its whole bytes, so the caller leaves 8
    /// bytes of room past the end (``RunLengthDeflate/bound(_:)`` does). Only at fewer than 8
    /// bits pending (after ``alignToByte()`` or another `word`).
    @inline(__always)
    mutating func word(_ value: UInt64, _ length: Int) {
        buffer |= value &<< UInt64(count)
        count &+= length
        next.unsafelyUnwrapped.storeBytes(of: buffer.littleEndian, as: UInt64.self)
        let whole = count &>> 3
        next = next.unsafelyUnwrapped + whole
        buffer = buffer &>> UInt64(whole &<< 3)  // below 64: at most 63 bits are pending
        count &= 7
    }

    /// Writes out whole bytes until fewer than 8 bits are pending, as ``word(_:_:)`` wants.
    mutating func alignToWord() {
        while count >= 8 {
            next!.storeBytes(of: UInt8(truncatingIfNeeded: buffer), as: UInt8.self)
            next! += 1
            buffer >>= 8
            count -= 8
        }
    }

    /// Bits to the next byte boundary once `pending` more are written.
    func bitsToByte(after pending: Int) -> Int { (8 - (count + pending) % 8) % 8 }

    /// Pads with zeros to a byte boundary and writes out every whole byte.
    mutating func alignToByte() {
        count = (count + 7) & ~7
        while count > 0 {
            next!.storeBytes(of: UInt8(truncatingIfNeeded: buffer), as: UInt8.self)
            next! += 1
            buffer >>= 8
            count -= 8
        }
    }

    /// One byte, at a byte boundary.
    mutating func byte(_ value: UInt8) {
        precondition(count == 0, "a byte written between bytes")
        next!.storeBytes(of: value, as: UInt8.self)
        next! += 1
    }

    /// Bytes each through `map`, at a byte boundary.
    mutating func bytes(_ bytes: UnsafeRawBufferPointer, through map: UnsafePointer<UInt8>) {
        precondition(count == 0, "bytes written between bytes")
        guard let source = bytes.baseAddress?.assumingMemoryBound(to: UInt8.self) else { return }
        let target = next!.assumingMemoryBound(to: UInt8.self)
        for index in 0..<bytes.count { target[index] = map[Int(source[index])] }
        next! += bytes.count
    }
}
