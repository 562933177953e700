extension WebApp {
    /// `GET /app.css`: the page's style. Line outlines in the colours of `viz` (horizontal #0072B2, vertical
    /// #D55E00, ruby #009E73: Okabe–Ito, told apart with colour blindness); the text over the image is transparent
    /// but selectable and found by the browser's search, as in the `html` format.
    static var style: String { ([css] + styleParts).joined(separator: "\n") }
    /// The style of the app's parts (WebApp.parts), after the page's.
    static let styleParts: [String] = [viewerCSS, searchCSS, proofreadingCSS]

    static let css = #"""
:root{--blue:#0072b2;--vermilion:#d55e00;--green:#009e73;--ink:#1d1d1f;--muted:#5c5c66;--paper:#fff;--ground:#f2f1ee;--line:#d6d4cf}
*{box-sizing:border-box}
html{font-family:"Noto Sans CJK JP","Hiragino Sans","Yu Gothic",system-ui,sans-serif;color:var(--ink);background:var(--ground);line-height:1.5}
body{margin:0}
a{color:var(--blue)}
:focus-visible{outline:3px solid var(--blue);outline-offset:2px}
.visually-hidden{position:absolute!important;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);white-space:nowrap;border:0}
.skip{position:absolute;left:.5rem;top:-3rem;background:var(--paper);padding:.4rem .8rem;z-index:10}
.skip:focus{top:.5rem}
header{display:flex;flex-wrap:wrap;align-items:baseline;gap:.3rem 1rem;padding:.8rem 1.5rem;background:var(--paper);border-bottom:1px solid var(--line)}
header h1{margin:0;font-size:1.4rem;letter-spacing:.02em}
header p{margin:0;color:var(--muted);flex:1 1 20rem}
button{font:inherit;padding:.35rem .9rem;border:1px solid #888;border-radius:.3rem;background:var(--paper);color:var(--ink);cursor:pointer}
button:hover{background:#e8eef5}
main{padding:1rem 1.5rem;max-width:110rem;margin:0 auto}
h2{font-size:1.15rem;margin:.6rem 0}
#drop{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.3rem;min-height:8rem;padding:1.2rem;border:3px dashed #8a8a93;border-radius:.6rem;background:var(--paper);text-align:center;cursor:pointer}
#drop:hover,#drop.over{border-color:var(--blue);background:#eaf3fa}
#drop-label{font-size:1.15rem;font-weight:600}
#drop-hint{color:var(--muted);font-size:.92rem}
#iiif{display:flex;flex-direction:column;gap:.3rem;margin-top:1rem}
#iiif label{font-weight:600}
.iiif-row{display:flex;flex-wrap:wrap;gap:.5rem}
#manifest{flex:1 1 24rem;font:inherit;padding:.35rem .5rem;border:1px solid #888;border-radius:.3rem}
#manifest-hint{color:var(--muted);font-size:.92rem}
.attribution{margin:0 0 .5rem;font-size:.92rem;color:var(--muted);word-break:break-word}
.attribution .credit{color:var(--ink)}
#error{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;margin:1rem 0;padding:.6rem 1rem;border-left:6px solid var(--vermilion);background:#fdece4}
#error[hidden]{display:none}
#error p{margin:0;flex:1 1 20rem}
#empty{color:var(--muted)}
.job{margin:1rem 0 2rem;padding:1rem;background:var(--paper);border:1px solid var(--line);border-radius:.5rem}
.job>h3{margin:0 0 .5rem;font-size:1.05rem;word-break:break-all}
.jobbar{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem}
.jobbar progress{width:14rem;height:1rem}
.status{margin:0;font-weight:600}
.downloads{display:flex;flex-wrap:wrap;align-items:baseline;gap:.3rem .6rem;margin:.5rem 0}
.downloads>span{color:var(--muted);font-size:.92rem}
.downloads a{padding:.1rem .5rem;border:1px solid var(--line);border-radius:.3rem;text-decoration:none;font-size:.92rem}
.downloads a:hover{background:#eaf3fa}
.viewer{display:flex;gap:1rem;align-items:flex-start;margin-top:.6rem}
.viewer[hidden]{display:none}
.pagelist{flex:0 0 8.5rem;max-height:80vh;overflow-y:auto;border:1px solid var(--line);border-radius:.4rem;background:var(--ground)}
.thumbs{list-style:none;margin:0;padding:.3rem}
.tp{margin:0 0 .3rem}
.thumb{display:flex;flex-direction:column;align-items:center;gap:.1rem;width:100%;padding:.25rem;border:2px solid transparent;background:var(--paper)}
.tp[aria-current=page] .thumb{border-color:var(--blue);background:#eaf3fa}
.tn{display:block;width:auto;max-width:100%;height:6.5rem;object-fit:contain;background:#e6e6ea}
.tn:not([src]){width:4.6rem}
.tl{font-size:.85rem;max-width:100%;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.thumb .state{font-size:.75rem}
.pageview{flex:1 1 auto;min-width:0}
.pagebar{display:flex;flex-wrap:wrap;align-items:center;gap:.4rem;margin:0 0 .5rem}
.pagebar .jump{width:5rem;font:inherit;padding:.25rem .4rem;border:1px solid #888;border-radius:.3rem}
.page{padding-top:.2rem}
.page:focus{outline:none}
.page h4{display:inline;margin:0 .8rem 0 0;font-size:1rem}
.undo{display:flex;flex-wrap:wrap;align-items:center;gap:.5rem 1rem;margin:1rem 0;padding:.6rem 1rem;border-left:6px solid var(--blue);background:#eaf3fa}
#mode{margin:.2rem 0 .8rem;color:var(--muted)}
#mode p{margin:0}
#mode code{background:var(--paper);padding:0 .3rem;border:1px solid var(--line);border-radius:.2rem;font-size:.9rem}
.state{font-size:.92rem;padding:.05rem .5rem;border-radius:1rem;background:#e6e6ea}
.state.running{background:#fff1c2}
.state.done{background:#d7efe6}
.state.failed{background:#fbd9c9}
.page-error{color:#a33a00;margin:.3rem 0}
.result{display:flex;flex-wrap:wrap;gap:1rem;align-items:flex-start;margin-top:.6rem}
.stage{flex:0 1 auto;width:min(calc(100% - 21rem),calc(80vh * var(--ar,1)),var(--most,100%));max-height:82vh;overflow:auto;padding:3px}
.sheet{position:relative;margin:0;width:100%;background:#fff;box-shadow:0 0 3px #888;overflow:hidden}
.sheet img{display:block;width:100%;height:auto}
.overlay{position:absolute;left:0;top:0;transform-origin:0 0}
.ol{position:absolute;margin:0;white-space:nowrap;line-height:normal;color:transparent;transform-origin:0 0}
.ol.v{writing-mode:vertical-rl}
.ol .t{position:absolute;left:0;top:0;transform-origin:0 0}
.ol ::selection{background:rgba(0,114,178,.35);color:transparent}
.overlay{--u:1}
.overlay .ol{outline:calc(1px * var(--u)) solid rgba(0,114,178,.45)}
.overlay .ol.v{outline-color:rgba(213,94,0,.5)}
.overlay .ol.ruby{outline-color:rgba(0,158,115,.6)}
.overlay .ol.hl{outline:calc(3px * var(--u)) solid var(--vermilion);background:rgba(213,94,0,.12)}
.ol mark.low{background:rgba(255,193,7,.3);color:transparent}
.side{flex:1 1 20rem;min-width:16rem;max-height:80vh;overflow:auto}
.legend{margin:0 0 .4rem;color:var(--muted);font-size:.9rem}
.lines{margin:0;padding-left:2.6rem;font-size:1.05rem}
.lines li{padding:.1rem .2rem;border-radius:.2rem}
.lines li.hl{background:#fde6d8}
.lines li.v::marker{color:var(--vermilion)}
.lines li.h::marker{color:var(--blue)}
.lines li.weak{color:var(--muted)}
.lines small{color:var(--muted);font-size:.8rem;margin-left:.4rem}
rt{font-size:.6em;color:var(--green)}
mark.low{background:#ffd54f;color:inherit;border-radius:.15rem}
.weak-title{font-size:.92rem;margin:.8rem 0 .2rem;color:var(--muted)}
footer{padding:1rem 1.5rem;color:var(--muted);font-size:.9rem}
@media (max-width:48rem){.stage{width:min(100%,var(--most,100%))}.viewer{flex-direction:column}.pagelist{flex-basis:auto;max-height:9rem;width:100%}.thumbs{display:flex;gap:.3rem}}
@media (prefers-reduced-motion:reduce){*{transition:none!important}}
"""#
}
