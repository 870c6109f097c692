import Foundation

/// Minimal SVG charts written directly, not through gnuplot: no extra
/// package on a fresh machine, byte-identical output for identical input
/// (numbers printed with fixed precision), and readable in any browser or
/// paper pipeline. Two kinds: a scatter with error bars and a bar chart.
public struct SVGPlot {
    public var title: String
    public var xLabel: String
    public var yLabel: String
    public var width = 720.0
    public var height = 480.0
    /// Room kept right of the plot area for a legend (line charts).
    public var legendWidth = 0.0

    public init(title: String, xLabel: String, yLabel: String) {
        self.title = title
        self.xLabel = xLabel
        self.yLabel = yLabel
    }

    public struct ScatterPoint {
        public let label: String
        public let x: Double, xLow: Double, xHigh: Double
        public let y: Double, yLow: Double, yHigh: Double
        public let highlighted: Bool
        public init(label: String, x: Double, xLow: Double, xHigh: Double,
                    y: Double, yLow: Double, yHigh: Double, highlighted: Bool) {
            self.label = label
            self.x = x; self.xLow = xLow; self.xHigh = xHigh
            self.y = y; self.yLow = yLow; self.yHigh = yHigh
            self.highlighted = highlighted
        }
    }

    private let margin = (left: 80.0, right: 30.0, top: 40.0, bottom: 60.0)

    /// Scatter of points with 95 % interval whiskers on both axes; the
    /// highlighted points (the Pareto frontier) are joined by a line.
    public func scatter(_ points: [ScatterPoint]) -> String {
        let finite = points.filter { $0.x.isFinite && $0.y.isFinite }
        let xs = finite.flatMap { [$0.x, $0.xLow, $0.xHigh] }.filter(\.isFinite)
        let ys = finite.flatMap { [$0.y, $0.yLow, $0.yHigh] }.filter(\.isFinite)
        let (x0, x1) = Self.niceRange(xs), (y0, y1) = Self.niceRange(ys)
        var svg = header()
        svg += axes(x0: x0, x1: x1, y0: y0, y1: y1)
        func px(_ x: Double) -> Double { margin.left + (x - x0) / (x1 - x0) * plotWidth }
        func py(_ y: Double) -> Double { height - margin.bottom - (y - y0) / (y1 - y0) * plotHeight }
        let frontier = finite.filter(\.highlighted).sorted { $0.x < $1.x }
        if frontier.count > 1 {
            let path = frontier.map { "\(f(px($0.x))),\(f(py($0.y)))" }.joined(separator: " ")
            svg += "<polyline points=\"\(path)\" fill=\"none\" stroke=\"#d62728\" stroke-width=\"1.5\" stroke-dasharray=\"4 3\"/>\n"
        }
        // Labels: greedy placement, moved down a line while they would
        // overlap one already placed (identical points get stacked labels).
        var placed: [(x: Double, y: Double, w: Double)] = []
        for p in finite {
            let color = p.highlighted ? "#d62728" : "#1f77b4"
            if p.xLow.isFinite && p.xHigh.isFinite {
                svg += line(px(p.xLow), py(p.y), px(p.xHigh), py(p.y), color)
            }
            if p.yLow.isFinite && p.yHigh.isFinite {
                svg += line(px(p.x), py(p.yLow), px(p.x), py(p.yHigh), color)
            }
            svg += "<circle cx=\"\(f(px(p.x)))\" cy=\"\(f(py(p.y)))\" r=\"4\" fill=\"\(color)\"/>\n"
            let w = Double(p.label.count) * 5.5
            var lx = px(p.x) + 6, ly = py(p.y) - 6
            while placed.contains(where: { abs($0.y - ly) < 11 && lx < $0.x + $0.w && $0.x < lx + w }) { ly += 11 }
            if lx + w > width { lx = max(0, px(p.x) - 6 - w) }
            placed.append((lx, ly, w))
            svg += text(lx, ly, p.label, size: 10, anchor: "start")
        }
        return svg + "</svg>\n"
    }

    /// One polyline per series over evenly spaced categories (x), with a legend.
    public func lines(categories: [String], series: [(name: String, values: [Double])]) -> String {
        let all = series.flatMap(\.values).filter(\.isFinite)
        let (_, y1) = Self.niceRange(all + [0])
        var svg = header()
        svg += axes(x0: nil, x1: nil, y0: 0, y1: y1, categories: categories)
        let step = plotWidth / Double(max(categories.count, 1))
        for (s, entry) in series.enumerated() {
            let color = Self.palette[s % Self.palette.count]
            let dash = s < Self.palette.count ? "" : " stroke-dasharray=\"5 3\""
            let points = entry.values.prefix(categories.count).enumerated().filter { $0.element.isFinite }.map { i, v in
                "\(f(margin.left + step * (Double(i) + 0.5))),\(f(height - margin.bottom - v / y1 * plotHeight))"
            }
            svg += "<polyline points=\"\(points.joined(separator: " "))\" fill=\"none\" stroke=\"\(color)\" stroke-width=\"1.5\"\(dash)/>\n"
            let ly = margin.top + 12 * Double(s)
            let lx = margin.left + plotWidth + 12
            svg += "<line x1=\"\(f(lx))\" y1=\"\(f(ly - 3))\" x2=\"\(f(lx + 14))\" y2=\"\(f(ly - 3))\" stroke=\"\(color)\" stroke-width=\"1.5\"\(dash)/>\n"
            svg += text(lx + 18, ly + 1, entry.name, size: 9, anchor: "start")
        }
        return svg + "</svg>\n"
    }

    static let palette = ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd", "#8c564b",
                          "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"]

    // MARK: Drawing helpers

    private var plotWidth: Double { width - margin.left - margin.right - legendWidth }
    private var plotHeight: Double { height - margin.top - margin.bottom }

    private func header() -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"\(f(width))\" height=\"\(f(height))\" viewBox=\"0 0 \(f(width)) \(f(height))\" font-family=\"sans-serif\">\n"
            + "<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n"
            + text(width / 2, 22, title, size: 14, anchor: "middle")
    }

    private func axes(x0: Double?, x1: Double?, y0: Double, y1: Double, categories: [String] = []) -> String {
        let left = margin.left, bottom = height - margin.bottom
        var s = line(left, bottom, left + plotWidth, bottom, "#000")
        s += line(left, margin.top, left, bottom, "#000")
        for v in Self.ticks(y0, y1) {
            let y = bottom - plotHeight * (v - y0) / (y1 - y0)
            s += line(left - 4, y, left, y, "#000")
            s += text(left - 8, y + 4, Self.tick(v), size: 10, anchor: "end")
        }
        if let x0, let x1 {
            for v in Self.ticks(x0, x1) {
                let x = left + plotWidth * (v - x0) / (x1 - x0)
                s += line(x, bottom, x, bottom + 4, "#000")
                s += text(x, bottom + 16, Self.tick(v), size: 10, anchor: "middle")
            }
        } else {
            let w = plotWidth / Double(max(categories.count, 1))
            for (i, c) in categories.enumerated() {
                s += text(left + w * (Double(i) + 0.5), bottom + 16, c, size: 9, anchor: "middle")
            }
        }
        s += text(left + plotWidth / 2, height - 18, xLabel, size: 12, anchor: "middle")
        s += "<text x=\"18\" y=\"\(f(margin.top + plotHeight / 2))\" font-size=\"12\" text-anchor=\"middle\" transform=\"rotate(-90 18 \(f(margin.top + plotHeight / 2)))\">\(Self.escape(yLabel))</text>\n"
        return s
    }

    private func line(_ xa: Double, _ ya: Double, _ xb: Double, _ yb: Double, _ color: String) -> String {
        "<line x1=\"\(f(xa))\" y1=\"\(f(ya))\" x2=\"\(f(xb))\" y2=\"\(f(yb))\" stroke=\"\(color)\" stroke-width=\"1\"/>\n"
    }

    private func text(_ x: Double, _ y: Double, _ s: String, size: Int, anchor: String) -> String {
        "<text x=\"\(f(x))\" y=\"\(f(y))\" font-size=\"\(size)\" text-anchor=\"\(anchor)\">\(Self.escape(s))</text>\n"
    }

    /// Two decimals, fixed: SVG needs no more and the bytes stay stable.
    private func f(_ v: Double) -> String { Self.fixed(v, 2) }

    static func fixed(_ v: Double, _ digits: Int) -> String {
        guard v.isFinite else { return "0" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let r = (v * scale).rounded() / scale
        var s = "\(r)"
        if s.hasSuffix(".0") { s.removeLast(2) }
        if s == "-0" { s = "0" }
        return s
    }

    /// Tick values at the nice step inside [lo, hi].
    static func ticks(_ lo: Double, _ hi: Double) -> [Double] {
        let step = niceStep((hi - lo) / 5)
        var out: [Double] = []
        var k = (lo / step).rounded(.up)
        while k * step <= hi + step * 1e-9 {
            out.append(k * step == 0 ? 0 : k * step)
            k += 1
        }
        return out
    }

    static func tick(_ v: Double) -> String {
        let a = abs(v)
        if a == 0 { return "0" }
        if a >= 1000 { return fixed(v, 0) }
        if a < 0.01 { return String(format: "%.1e", v) }
        return a >= 10 ? fixed(v, 1) : fixed(v, 3)
    }

    /// An axis range that starts and ends on a "nice" tick (1, 2 or 5 × 10^k
    /// steps, five or so of them), and never dips below 0 for non-negative data.
    static func niceRange(_ values: [Double]) -> (Double, Double) {
        guard var lo = values.min(), var hi = values.max() else { return (0, 1) }
        if lo == hi { let d = lo == 0 ? 1 : abs(lo) * 0.1; lo -= d; hi += d }
        let step = niceStep((hi - lo) / 5)
        let nonNegative = lo >= 0
        lo = (lo / step).rounded(.down) * step
        hi = (hi / step).rounded(.up) * step
        if nonNegative { lo = max(0, lo) }
        return (lo, hi)
    }

    static func niceStep(_ raw: Double) -> Double {
        let magnitude = pow(10, (log10(raw)).rounded(.down))
        let f = raw / magnitude
        return (f <= 1 ? 1 : f <= 2 ? 2 : f <= 5 ? 5 : 10) * magnitude
    }

    static func escape(_ s: String) -> String {
        var out = ""
        for c in s {
            switch c {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.append(c)
            }
        }
        return out
    }
}
