import Foundation
import NIOCore

/// Closes a new connection from an address that already holds `limit` open ones: without it,
/// one sender's idle sockets use up the service's file descriptors and take it off the air.
///
/// One handler per connection, all sharing one count. Behind a reverse proxy every visitor
/// comes from the proxy's address, so the cap is then the proxy's own connection count.
final class ConnectionCap: ChannelInboundHandler, RemovableChannelHandler, @unchecked Sendable {
    typealias InboundIn = NIOAny

    /// Open connections by address, shared by every connection's handler.
    final class Counts: @unchecked Sendable {
        let limit: Int
        private var open: [String: Int] = [:]
        private let lock = NSLock()

        init(limit: Int) { self.limit = limit }

        /// Counts a connection from `address` in; false when the address is at its limit.
        func admit(_ address: String) -> Bool {
            lock.withLock {
                guard open[address, default: 0] < limit else { return false }
                open[address, default: 0] += 1
                return true
            }
        }

        func release(_ address: String) {
            lock.withLock {
                open[address, default: 1] -= 1
                if open[address] == 0 { open[address] = nil }
            }
        }
    }

    private let counts: Counts
    private let onRefused: @Sendable (String) -> Void
    /// The address this connection was counted under, until it closes.
    private var counted: String?

    init(counts: Counts, onRefused: @escaping @Sendable (String) -> Void) {
        self.counts = counts
        self.onRefused = onRefused
    }

    func handlerAdded(context: ChannelHandlerContext) {
        let address = context.channel.remoteAddress?.ipAddress ?? "unknown"
        if counts.admit(address) {
            counted = address
        } else {
            onRefused(address)
            context.close(promise: nil)
        }
    }

    func channelInactive(context: ChannelHandlerContext) {
        release()
        context.fireChannelInactive()
    }

    func handlerRemoved(context: ChannelHandlerContext) { release() }

    private func release() {
        if let counted { counts.release(counted) }
        counted = nil
    }
}
