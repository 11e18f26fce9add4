import HTTPServer

/// The page at `/`. A placeholder that points to the image endpoint until the interactive
/// playground lands (issue 7).
enum PlaygroundPage {
    static let response = HTTPResponse(
        status: .ok,
        headers: [
            ("Content-Type", "text/html; charset=utf-8"),
            ("Cache-Control", "public, max-age=300"),
            ("Content-Security-Policy", "default-src 'none'; img-src 'self'; style-src 'unsafe-inline'"),
            ("X-Content-Type-Options", "nosniff"),
        ],
        body: Array(html.utf8))

    private static let html = """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>ring</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>body{font:16px system-ui,sans-serif;max-width:40rem;margin:3rem auto;padding:0 1rem}
        code{background:#8882;padding:.1em .3em;border-radius:4px}</style></head>
        <body><h1>ring</h1><p>Progress rings as images, served by URL.</p>
        <p><img src="/ring.svg?p=72&amp;slice=0.45" alt="72%" width="120" height="120"></p>
        <p><code>&lt;img src="/ring.svg?p=72&amp;slice=0.45"&gt;</code></p></body></html>
        """
}
