extension PageNode {
    /// The box an NDL XML element's `X, Y, WIDTH, HEIGHT` attributes describe (a LINE's), as xyxy; missing
    /// values count as 0.
    var lineBox: PixelBox {
        PixelBox(x: int("X") ?? 0, y: int("Y") ?? 0, width: int("WIDTH") ?? 0, height: int("HEIGHT") ?? 0)
    }
}
