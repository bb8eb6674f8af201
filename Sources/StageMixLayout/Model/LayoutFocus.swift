/// Who a layout puts first, in every region: `pinned` follows the pin order (the host's choice);
/// `speaker` puts whoever is talking first (the active speaker, decided from the microphones before
/// composing), then the pin order, so a one-tile region shows the speaker and the rest follow.
public enum LayoutFocus: String, Sendable, Hashable, Codable, CaseIterable {
    case pinned
    case speaker
}
