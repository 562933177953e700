extension WebApp {
    static let css = #"""
/* placeholder: the web app lands from branch issue-26-web */
"""#
}
