#if os(Linux)
    import CSystem
    import Glibc

    /// The Linux backend: one epoll set, level-triggered, and an `eventfd` to wake it. The loop's
    /// thread blocks in `epoll_wait` and handles a whole batch of ready descriptors per wake-up,
    /// about two system calls per request in all.
    ///
    /// `@unchecked Sendable`: `wake()` only writes to the `eventfd`, which is safe from any
    /// thread; everything else is called by the loop's own thread.
    final class EpollPoller: Poller, @unchecked Sendable {
        private let epoll: Int32
        private let wakeDescriptor: Int32
        private var events = [epoll_event](repeating: epoll_event(), count: 512)

        init() throws(SocketError) {
            epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
            guard epoll >= 0 else { throw SocketError("epoll_create1") }
            wakeDescriptor = eventfd(0, Int32(EFD_NONBLOCK) | Int32(EFD_CLOEXEC))
            guard wakeDescriptor >= 0 else {
                Glibc.close(epoll)
                throw SocketError("eventfd")
            }
            var event = csystem_epoll_event_make(EPOLLIN.rawValue, wakeDescriptor)
            guard epoll_ctl(epoll, EPOLL_CTL_ADD, wakeDescriptor, &event) == 0 else {
                Glibc.close(wakeDescriptor)
                Glibc.close(epoll)
                throw SocketError("epoll_ctl")
            }
        }

        deinit {
            Glibc.close(epoll)
            Glibc.close(wakeDescriptor)
        }

        private static func mask(_ interest: PollInterest) -> UInt32 {
            (interest.contains(.readable) ? EPOLLIN.rawValue : 0)
                | (interest.contains(.writable) ? EPOLLOUT.rawValue : 0)
        }

        func add(_ fd: Int32, _ interest: PollInterest) -> Bool {
            var event = csystem_epoll_event_make(Self.mask(interest), fd)
            return epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) == 0
        }

        func modify(_ fd: Int32, _ interest: PollInterest) -> Bool {
            var event = csystem_epoll_event_make(Self.mask(interest), fd)
            return epoll_ctl(epoll, EPOLL_CTL_MOD, fd, &event) == 0
        }

        func remove(_ fd: Int32) {
            // A descriptor not in the set (or already closed) needs nothing more.
            _ = epoll_ctl(epoll, EPOLL_CTL_DEL, fd, nil)
        }

        func close(_ fd: Int32) {
            // Removed first, so the set never holds a number the kernel may hand out again.
            remove(fd)
            _ = Glibc.close(fd)
        }

        var needsThread: Bool { true }
        var reportsBatches: Bool { true }

        func run(_ handler: any PollHandler, finished: @escaping @Sendable () -> Void) {
            var next = PollNext.wait
            while next != .stop { next = handler.batchFinished(events: wait(handler, blocking: next == .wait)) }
            finished()
        }

        /// Reports each ready descriptor, first blocking in `epoll_wait` until one is ready or
        /// the loop is woken if `blocking`; returns how many there were (0 after a bare wake-up,
        /// or when nothing was ready).
        private func wait(_ handler: any PollHandler, blocking: Bool) -> Int {
            let ready = events.withUnsafeMutableBufferPointer {
                epoll_wait(epoll, $0.baseAddress, Int32($0.count), blocking ? -1 : 0)
            }
            guard ready > 0 else { return 0 }  // EINTR
            var reported = 0
            for index in 0..<Int(ready) {
                let fd = withUnsafePointer(to: &events[index]) { csystem_epoll_event_fd($0) }
                let flags = events[index].events
                if fd == wakeDescriptor {
                    var value: UInt64 = 0
                    _ = read(wakeDescriptor, &value, 8)
                    continue
                }
                let readable = flags & EPOLLIN.rawValue != 0
                handler.handle(
                    PollEvent(
                        fd: fd, readable: readable, writable: flags & EPOLLOUT.rawValue != 0,
                        failed: !readable && flags & (EPOLLERR.rawValue | EPOLLHUP.rawValue) != 0,
                        readToEnd: false))
                reported += 1
            }
            return reported
        }

        func wake() {
            var one: UInt64 = 1
            _ = write(wakeDescriptor, &one, 8)
        }
    }
#endif
