import StageMixMedia

extension MediaLoss.Cause {
    /// Why a file could not be opened or read on, from the reader's error.
    init(failure error: MediaError) {
        switch error.code {
        case .notFound: self = .missing
        case .tooLarge: self = .tooLarge
        default: self = .unreadable
        }
    }
}
