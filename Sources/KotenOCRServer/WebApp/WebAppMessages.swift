import Foundation

/// The web app's words for every error code of the API (`APIError.Code`'s raw values; WebAppViewerTests checks that
/// every code has its words), in Japanese and English: a refusal is
/// shown in the page's language, followed by its code and HTTP status (the server's own one-line message, in
/// English, is added in English and kept as the error's tooltip in Japanese). Given to the script as JSON
/// (`errorsJSON`), merged into its strings as `error_<code>`.
extension WebApp {
    static let errorMessages: [String: (ja: String, en: String)] = [
        "bad_path": ("そのアドレスはこのサーバーにありません。", "The server has no such address."),
        "bad_option": ("指定の値が正しくありません。", "An option was given a value the server does not take."),
        "empty_body": ("送られたファイルが空でした。", "What was sent was empty."),
        "bad_body": ("送られた内容を読み取れませんでした。", "The server could not read what was sent."),
        "many_pages": ("1ページずつ送ってください（複数ページの本はまとめて「ページを読み取る」から）。", "Send one page here; a book of several pages is read as one job."),
        "unauthorised": ("このサーバーはトークンを求めています。", "The server asks for its token."),
        "cross_origin": ("ほかのサイトからの操作は受け付けられません。", "The server refuses a request from another site."),
        "not_found": ("見つかりません（削除されたか、まだ読み取られていません）。", "Not found: removed, or not read yet."),
        "page_failed": ("このページは読み取れませんでした。", "This page could not be read."),
        "method_not_allowed": ("その操作はここではできません。", "That cannot be done here."),
        "not_done": ("まだ読み取りが終わっていません。終わってからもう一度お試しください。", "Not done yet: try again once every page is read."),
        "too_large": ("ファイルが大きすぎます。", "The file is too large for this server."),
        "too_many_pages": ("ページが多すぎます。", "Too many pages for this server."),
        "uri_too_long": ("アドレスが長すぎます。", "The address is too long."),
        "unsupported_type": ("画像・PDF・TIFF・画像のzipではないファイルは読み取れません。", "The file is not an image, a PDF, a TIFF or a zip of images."),
        "range_not_satisfiable": ("求められた範囲がファイルの外にあります。", "The part asked for lies outside the file."),
        "unknown_host": ("このサーバーは別の名前で呼ばれています。", "The server does not answer to this host name."),
        "undecodable": ("画像が壊れているか、読み込めない形式です。", "The image is damaged or cannot be decoded."),
        "too_many_pixels": ("画像の画素数が多すぎます。", "The image has too many pixels."),
        "bad_zip": ("zipファイルを開けませんでした。", "The zip could not be opened."),
        "no_pages": ("読み取れるページがありません。", "There is no page to read."),
        "bad_manifest": ("IIIFマニフェストを読み込めませんでした。", "The IIIF manifest could not be read."),
        "too_many_requests": ("短い間に依頼が多すぎました。少し待ってからお試しください。", "Too many requests in a short time: wait a little."),
        "headers_too_large": ("依頼のヘッダーが大きすぎます。", "The request's headers are too large."),
        "client_closed": ("接続が途中で切れました。", "The connection was closed before the answer."),
        "internal": ("サーバー内部でエラーが起きました。", "Something failed inside the server."),
        "not_implemented": ("この操作にはまだ対応していません。", "The server does not do that."),
        "queue_full": ("順番待ちがいっぱいです。しばらくしてからお試しください。", "The queue is full: try again in a while."),
        "memory": ("メモリが足りません。しばらくしてからお試しください。", "Not enough memory now: try again in a while."),
        "page_timeout": ("ページの読み取りに時間がかかりすぎました。", "Reading the page took too long."),
        "precondition_failed": ("ほかの場所でこのページが変更されました。読み込み直してください。", "The page was changed elsewhere: load it again."),
        "precondition_required": ("ページの版を添えて送ってください。", "The page's version must be sent with the change."),
        "invalid_edit": ("その修正は受け付けられません。", "The server cannot take that change."),
        "disk_full": ("サーバーのディスクがいっぱいです。", "The server's disk is full."),
    ]

    /// `{"ja": {"error_bad_path": "…", …}, "en": {…}}`.
    static var errorsJSON: String {
        var ja: [String: String] = [:], en: [String: String] = [:]
        for (code, words) in errorMessages {
            ja["error_\(code)"] = words.ja
            en["error_\(code)"] = words.en
        }
        guard let data = try? JSONSerialization.data(withJSONObject: ["ja": ja, "en": en], options: [.sortedKeys]),
              let text = String(data: data, encoding: .utf8) else { return "{\"ja\":{},\"en\":{}}" }
        return text
    }
}
