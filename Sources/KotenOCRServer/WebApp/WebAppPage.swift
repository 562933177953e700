/// The web app at `/` (docs/serve.md, "The web app"): one page, its style (`WebApp.css`, `/app.css`) and its
/// script (`WebApp.js`, `/app.js`), carried in the binary as raw string literals: no resource bundle, no install
/// step, no URL outside the server (it works offline). The page's words are English here and switched to
/// Japanese by the script (`navigator.language`, or the language button); every recognised text carries
/// `lang="ja"`.
enum WebApp {
    /// `GET /app.js`: the main script (`js`), then each of the app's parts in order. A part is plain JavaScript
    /// in its own closure that uses only `window.KotenApp` and listens for `koten:page` (a page shown: `detail`
    /// has `job`, `page`, `result` — the page's JSON — and `root`, its `.result` element).
    static let parts: [String] = [viewer, search, proofreadingJS]
    static var script: String { ([js] + parts).joined(separator: "\n") }

    /// `GET /` (text/html; charset=utf-8).
    static let html = #"""
<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>KotenOCR</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="app.css">
<script src="app.js" defer></script>
</head>
<body>
<a class="skip" href="#jobs" data-i18n="skip">Skip to the results</a>
<header>
<h1>KotenOCR</h1>
<p id="tagline" data-i18n="tagline">Reads pages of Japanese books, old and new, on this computer.</p>
<button id="lang" type="button" lang="ja" data-other="ja">日本語</button>
</header>
<main>
<section id="upload" aria-labelledby="upload-title">
<h2 id="upload-title" data-i18n="uploadTitle">Read pages</h2>
<div id="mode" hidden><p class="mode-name"></p><p class="mode-hint" hidden><span></span> <code lang="en">koten-ocr models install --mode koten DIR</code>, <code lang="en">koten-ocr serve --mode koten</code></p></div>
<div id="drop" role="button" tabindex="0" aria-describedby="drop-hint">
<span id="drop-label" data-i18n="dropLabel">Drop images or a PDF here, or choose files</span>
<span id="drop-hint" data-i18n="dropHint">PNG, JPEG, TIFF, WebP, PDF, or a zip of images. Several files make one job.</span>
</div>
<input id="file" type="file" multiple accept="image/*,application/pdf,.pdf,.tif,.tiff,.zip,application/zip" class="visually-hidden" tabindex="-1" aria-labelledby="drop-label">
<form id="iiif">
<label for="manifest" data-i18n="manifestLabel">Or a book a digital library publishes with IIIF: the URL of its manifest</label>
<div class="iiif-row">
<input id="manifest" name="manifest" type="url" required placeholder="https://…/manifest.json" spellcheck="false" autocomplete="url" aria-describedby="manifest-hint">
<button type="submit" data-i18n="manifestRead">Read the book</button>
</div>
<span id="manifest-hint" data-i18n="manifestHint">Its pages are fetched from the library one at a time as they are read.</span>
</form>
</section>
<div id="error" role="alert" hidden>
<p><strong data-i18n="errorTitle">Something went wrong:</strong> <span id="error-text"></span></p>
<button id="error-close" type="button" data-i18n="dismiss">Dismiss</button>
</div>
<section id="jobs" aria-labelledby="jobs-title" tabindex="-1">
<h2 id="jobs-title" data-i18n="jobsTitle">Results</h2>
<p id="empty" data-i18n="empty">Nothing read yet. The pages you choose appear here, each with its text over the image and beside it.</p>
</section>
</main>
<footer>
<p><span id="server"></span> · <a href="openapi.json" data-i18n="api">HTTP API (OpenAPI)</a></p>
</footer>
</body>
</html>
"""#
}
