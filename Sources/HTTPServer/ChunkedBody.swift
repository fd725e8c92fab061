import CMicroHTTPD
import CMicroHTTPDLoader

/// Feeds libmicrohttpd an ``HTTPBody/chunks(_:)`` body: it calls the producer when the
/// connection can take more, and keeps what did not fit for the next call.
///
/// libmicrohttpd calls it only on the thread that owns the connection, one call at a time.
final class ChunkedBody {
    private let produce: () throws -> [UInt8]?
    private let onError: (any Error) -> Void
    private var pending: [UInt8] = []
    private var sent = 0

    init(produce: @escaping () throws -> [UInt8]?, onError: @escaping (any Error) -> Void) {
        self.produce = produce
        self.onError = onError
    }

    /// Copies up to `capacity` bytes into `buffer`; returns the count, or libmicrohttpd's
    /// end-of-stream or end-with-error marker. Never 0, which would make libmicrohttpd spin.
    func read(into buffer: UnsafeMutablePointer<CChar>, capacity: Int) -> Int {
        while sent == pending.count {
            do {
                guard let next = try produce() else { return cart_mhd_end_of_stream() }
                pending = next
                sent = 0
            } catch {
                onError(error)
                return cart_mhd_end_with_error()
            }
        }
        let count = min(pending.count - sent, capacity)
        let start = sent
        pending.withUnsafeBytes { bytes in
            UnsafeMutableRawBufferPointer(start: buffer, count: count)
                .copyMemory(from: UnsafeRawBufferPointer(rebasing: bytes[start..<(start + count)]))
        }
        sent += count
        return count
    }
}
