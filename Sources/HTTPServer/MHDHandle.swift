/// A pointer to a libmicrohttpd daemon or connection, to keep in a lock.
///
/// libmicrohttpd lets any thread resume a connection or stop a daemon, the only calls made
/// through a handle from another thread than the one that made it.
struct MHDHandle: @unchecked Sendable {
    let pointer: OpaquePointer
}
