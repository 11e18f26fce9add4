import RingRaster

/// The PNG engine's fonts for `serve` and `render`: the files named by `--font`, in order,
/// else the standard locations. A named font that does not read is an error, printed here; a
/// standard one that does not read is left out, with a warning for the caller to print (`serve`
/// prints its start-up line first, which scripts read for the port).
enum FontLoading {
    static func load(paths: [String], limits: FontLimits) -> (fonts: LabelFonts, warnings: [String])? {
        do {
            return try LabelFonts.load(paths: paths, limits: limits)
        } catch {
            var stderr = StandardError()
            print("ring: \(error)", to: &stderr)
            return nil
        }
    }

    static func warn(_ warnings: [String]) {
        var stderr = StandardError()
        for warning in warnings { print("ring: warning: \(warning)", to: &stderr) }
    }
}
