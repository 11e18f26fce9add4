// libFuzzer harness for the source documents of live values: bytes → JSONDocument → the
// numbers paths select. Compiled with JSONDocument.swift against an instrumented RingCore by
// scripts/checks/fuzz.sh (not part of the Swift package).
//
// Input: a first line taken as a field path, the rest as the document.
// Checks: no crash, trap or hang on any document (nesting is bounded, so no stack overflow);
// every number kept is RFC 8259's grammar, which Double parses; a path on a document either
// selects text or says why not, naming the path.

import RingCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONDocument(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let newline = bytes.firstIndex(of: 0x0A) ?? 0
    let pathText = String(decoding: bytes[..<newline], as: UTF8.self)
    let body = Array(bytes[(newline == 0 ? 0 : newline + 1)...])
    guard let document = try? JSONDocument(body) else { return 0 }
    func check(_ value: JSONDocument.Value, depth: Int) {
        precondition(depth <= JSONDocument.maxDepth + 1, "nested past the limit")
        switch value {
        case .number(let text): precondition(Double(text) != nil, "number \(text) is not a number")
        case .array(let items): for item in items { check(item, depth: depth + 1) }
        case .object(let members): for (_, item) in members { check(item, depth: depth + 1) }
        default: break
        }
    }
    check(document.root, depth: 0)
    let query = "src=https://example.com/d.json&field=" + pathText
    guard let spec = try? RingSpec(query: query), let path = spec.fields.first else { return 0 }
    switch document.number(at: path) {
    case .success: break
    case .failure(let refusal): precondition(refusal.reason.hasPrefix(path.description + " is "), refusal.reason)
    }
    return 0
}
