extension HTTPStream {
    /// Queues one Server-Sent Event: an optional `event:` name and `id:`, then `data`, one
    /// `data:` line for each of its lines. Returns false, queuing nothing, when the stream has
    /// ended or `name` or `id` contains a line break (which would forge other fields).
    @discardableResult
    public func sendEvent(_ name: String? = nil, data: String, id: String? = nil) -> Bool {
        let breaks: Set<Character> = ["\r", "\n", "\r\n"]
        if let name, name.contains(where: breaks.contains) { return false }
        if let id, id.contains(where: breaks.contains) { return false }
        var event = ""
        if let name { event += "event: \(name)\n" }
        if let id { event += "id: \(id)\n" }
        for line in data.split(omittingEmptySubsequences: false, whereSeparator: breaks.contains) {
            event += "data: \(line)\n"
        }
        event += "\n"
        return write(event)
    }

    /// Queues a comment line, which event-stream clients ignore; returns false when the
    /// stream has ended or `text` contains a line break.
    @discardableResult
    public func sendComment(_ text: String = "") -> Bool {
        guard !text.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\r\n" }) else { return false }
        return write(": \(text)\n\n")
    }
}
