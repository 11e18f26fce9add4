import Foundation
import HTTPServer
import RingCore

/// The playground at `/`: one self-contained HTML page that builds a ring URL from form
/// controls, previews it, and offers copy-ready snippets. Its query string is its state.
///
/// The inline script and style are allowed by their SHA-256 digests in the page's
/// Content-Security-Policy, computed here once, so the policy needs no `'unsafe-inline'` and
/// nothing can be loaded from anywhere but this service.
enum PlaygroundPage {
    static let response: HTTPResponse = {
        let html = PlaygroundMarkup.html(style: PlaygroundMarkup.style, script: PlaygroundMarkup.script)
        return HTTPResponse(
            status: .ok,
            headers: [
                ("Content-Type", "text/html; charset=utf-8"),
                ("Cache-Control", "public, max-age=300"),
                ("Content-Security-Policy", contentSecurityPolicy),
                ("X-Content-Type-Options", "nosniff"),
                ("Referrer-Policy", "no-referrer"),
            ],
            body: Array(html.utf8))
    }()

    /// Scripts and styles by digest only; images and fetches from this origin only.
    static let contentSecurityPolicy =
        "default-src 'none'; script-src '\(digest(PlaygroundMarkup.script))'; "
        + "style-src '\(digest(PlaygroundMarkup.style))'; img-src 'self'; connect-src 'self'; "
        + "base-uri 'none'; form-action 'none'; frame-ancestors 'none'"

    /// `sha256-` and the base64 digest of `text`, as CSP writes hash sources.
    static func digest(_ text: String) -> String {
        "sha256-" + Data(SHA256.hash(Array(text.utf8))).base64EncodedString()
    }
}
