/// The VP9 RTP payload descriptor (RFC 9628, formerly draft-ietf-payload-vp9): I/P/L/F/B/E/V bits,
/// picture id, layer indices, reference diffs (flexible mode), TL0PICIDX (non-flexible mode) and the
/// scalability structure, whose sizes are read past.
struct VP9Descriptor {
    var length: Int
    /// B: the packet begins a layer frame.
    var begins: Bool
    /// E: the packet ends a layer frame.
    var ends: Bool
    /// The spatial layer, 0 without layer indices.
    var spatialLayer: Int
    /// The scalability structure's picture size of each spatial layer, when it has them (V and Y).
    var layerSizes: [(width: Int, height: Int)] = []

    /// Nil when the descriptor is cut short.
    init?(_ p: [UInt8]) {
        guard let first = p.first else { return nil }
        let i = first & 0x80 != 0, hasReferences = first & 0x40 != 0, l = first & 0x20 != 0, flexible = first & 0x10 != 0
        begins = first & 0x08 != 0
        ends = first & 0x04 != 0
        spatialLayer = 0
        var at = 1
        func byte() -> UInt8? {
            guard at < p.count else { return nil }
            defer { at += 1 }
            return p[at]
        }
        if i {
            guard let id = byte() else { return nil }
            if id & 0x80 != 0 { guard byte() != nil else { return nil } }
        }
        if l {
            guard let layers = byte() else { return nil }
            spatialLayer = Int(layers >> 1 & 0x07)
            if !flexible { guard byte() != nil else { return nil } }  // TL0PICIDX
        }
        if flexible, hasReferences {
            for _ in 0..<3 {
                guard let diff = byte() else { return nil }
                if diff & 0x01 == 0 { break }
            }
        }
        if first & 0x02 != 0 {  // V: scalability structure
            guard let ss = byte() else { return nil }
            let layers = Int(ss >> 5) + 1
            if ss & 0x10 != 0 {  // Y: width and height of each
                for _ in 0..<layers {
                    guard let w0 = byte(), let w1 = byte(), let h0 = byte(), let h1 = byte() else { return nil }
                    layerSizes.append((Int(w0) << 8 | Int(w1), Int(h0) << 8 | Int(h1)))
                }
            }
            if ss & 0x08 != 0 {  // G: picture group description
                guard let groups = byte() else { return nil }
                for _ in 0..<groups {
                    guard let g = byte() else { return nil }
                    at += Int(g >> 2 & 0x03)
                }
            }
        }
        guard at <= p.count else { return nil }
        length = at
    }
}
