#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A buffered writer over a file descriptor: streaming thousands of CSV rows costs a few
/// system calls, and memory stays at one buffer whatever the output size.
public final class FileDescriptorOutput: CommandOutput {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private let capacity: Int

    /// The process's standard output, buffered.
    public static func standardOutput() -> FileDescriptorOutput { FileDescriptorOutput(descriptor: 1) }

    /// The process's standard error; messages are flushed as they are written.
    public static func standardError() -> FileDescriptorOutput { FileDescriptorOutput(descriptor: 2, capacity: 0) }

    /// Wraps a descriptor the caller keeps open.
    public init(descriptor: Int32, capacity: Int = 64 * 1024) {
        self.fileDescriptor = descriptor
        self.capacity = capacity
        buffer.reserveCapacity(capacity)
    }

    public var descriptor: Int32? { fileDescriptor }

    public var isTerminal: Bool { isatty(fileDescriptor) == 1 }

    public var terminalColumns: Int? {
        var size = winsize()
        guard ioctl(fileDescriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    public func write(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= capacity { try flush() }
    }

    /// `OutputClosed` for a reader that went away (EPIPE), which is no one's mistake;
    /// `OutputFailed` with the system's message for anything else.
    static func failure(errno code: Int32) -> any Error {
        guard code != EPIPE else { return OutputClosed() }
        return OutputFailed(reason: strerror(code).map { String(cString: $0) } ?? "error \(code)")
    }

    public func flush() throws {
        var written = 0
        defer { buffer.removeAll(keepingCapacity: true) }
        while written < buffer.count {
            let result = buffer[written...].withUnsafeBytes { bytes in
                #if canImport(Glibc)
                    Glibc.write(fileDescriptor, bytes.baseAddress, bytes.count)
                #elseif canImport(Musl)
                    Musl.write(fileDescriptor, bytes.baseAddress, bytes.count)
                #else
                    Darwin.write(fileDescriptor, bytes.baseAddress, bytes.count)
                #endif
            }
            if result < 0 {
                if errno == EINTR { continue }
                throw Self.failure(errno: errno)
            }
            // A write of nothing would be asked for again for ever.
            guard result > 0 else { throw OutputFailed(reason: "nothing was written") }
            written += result
        }
    }
}
