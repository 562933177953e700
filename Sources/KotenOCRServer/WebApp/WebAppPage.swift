/// The web app served at `/` (placeholder until branch issue-26-web lands).
enum WebApp {
    static let html = #"""
<!doctype html><html lang="en"><meta charset="utf-8"><title>KotenOCR</title><link rel="stylesheet" href="/app.css"><script src="/app.js"></script><p>KotenOCR server: see /openapi.json</p></html>
"""#
}
