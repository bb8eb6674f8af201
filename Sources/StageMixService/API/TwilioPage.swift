/// A page of Twilio's list resource: the compositions and Twilio's `meta` (its libraries page by `next_page_url`).
struct TwilioPage: Encodable {
    var compositions: [TwilioCompositionView]
    var meta: TwilioPageMeta
}

struct TwilioPageMeta: Encodable {
    var page: Int
    var page_size: Int
    var first_page_url: String
    var previous_page_url: String?
    var url: String
    var next_page_url: String?
    var key: String
}
