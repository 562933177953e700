extension WebApp {
    static let js = #"""
/* placeholder: the web app lands from branch issue-26-web */
"""#
}
