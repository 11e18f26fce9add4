import HTTPServer
import RingCore
import RingRaster
import RingService

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Help texts and the usage-error exit.
enum Usage {
    static let version =
        "\(RingService.version) (SVG renderer \(RingRenderer.version), PNG renderer \(RingRasterizer.version))"

    static let main = """
        ring — progress rings as SVG and PNG images, served by URL.

        USAGE:
          ring serve [OPTIONS]     serve /ring.svg?QUERY and /ring.png?QUERY over HTTP
                                   (see `ring serve --help`)
          ring render QUERY|URL [--format svg|png] [-o FILE.svg|FILE.png]
                                   write the SVG or PNG the server answers for QUERY, e.g.
                                   ring render 'p=72&slice=0.45' -o ring.png
                                   (see `ring render --help`)
          ring examples [--errors | --languages]
                                   list the example catalogue (name and query per line), the
                                   invalid queries whose error images the docs show, or the
                                   seeds' five languages
          ring parameters          print the parameter reference as Markdown (for the docs)
          ring healthcheck [--host ADDRESS] [--port N]
                                   exit 0 if a local `ring serve` answers /healthz (for containers)
          ring --help | --version
        """

    /// Prints `message` and where the help is, one line each, to stderr and exits 2: the
    /// mistake stays on screen instead of scrolling away above a whole help text.
    static func fail(_ message: String, help command: String) -> Never {
        var stderr = StandardError()
        print("ring: \(message)\nsee `\(command) --help`", to: &stderr)
        exit(2)
    }
}

/// Text output to stderr (file descriptor 2, unbuffered).
struct StandardError: TextOutputStream {
    mutating func write(_ string: String) {
        FileDescriptor.writeAll(Array(string.utf8), to: STDERR_FILENO)
    }
}
