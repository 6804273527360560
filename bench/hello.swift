// hello: the least a Swift program does that reads what `pushscript run` reads, to measure a
// cold `run` against. It loads Foundation, reads the script and the payload, parses the
// payload's JSON and prints one line; it runs no Lua.
//
//   swiftc -O bench/hello.swift -o hello
//   hello SCRIPT PAYLOAD
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: hello SCRIPT PAYLOAD\n".utf8))
    exit(2)
}
do {
    let script = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
    let payload = try Data(contentsOf: URL(fileURLWithPath: arguments[2]))
    let json = try JSONSerialization.jsonObject(with: payload)
    let keys = (json as? [String: Any])?.count ?? 0
    print("{\"outcome\":\"completed\",\"script\":\(script.count),\"fields\":\(keys)}")
} catch {
    FileHandle.standardError.write(Data("hello: \(error)\n".utf8))
    exit(1)
}
