import RingCore

let svg = RingRenderer.render(try! RingSpec(query: CommandLine.arguments[1]))
print(String(decoding: svg, as: UTF8.self))
