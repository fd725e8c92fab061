import CartPostgres
import Foundation
import Testing

@Suite("PostgreSQL LISTEN and NOTIFY", TestServer.requires())
struct PostgresNotificationTests {
    @Test("a notification reaches a listener on another connection; waiting without one times out")
    func acrossConnections() throws {
        let listener = try TestServer.connect()
        let sender = try TestServer.connect()
        let channel = "cart events \(UUID().uuidString)"
        try listener.listen(channel)
        #expect(listener.isListening)
        #expect(try listener.waitForNotification(timeout: .milliseconds(50)) == nil)

        try sender.notify(channel, payload: "cart c1 changed")
        let notification = try #require(try listener.waitForNotification(timeout: .seconds(10)))
        #expect(notification.channel == channel)
        #expect(notification.payload == "cart c1 changed")
        #expect(notification.processID == sender.backendProcessID)

        try sender.transaction {
            try sender.notify(channel, payload: "first")
            try sender.notify(channel, payload: "second")
            #expect(try listener.waitForNotification(timeout: .milliseconds(50)) == nil)
        }
        #expect(try listener.waitForNotification(timeout: .seconds(10))?.payload == "first")
        #expect(try listener.waitForNotification(timeout: .seconds(10))?.payload == "second")

        try listener.unlisten(channel)
        try sender.notify(channel)
        #expect(try listener.waitForNotification(timeout: .milliseconds(50)) == nil)
    }

    @Test("a listener blocked in a wait wakes when a notification comes")
    func wakesUp() throws {
        let listener = try TestServer.connect()
        let channel = "cart_\(UUID().uuidString)"
        try listener.listen(channel)
        let location = try TestServer.location()
        let sent = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            Thread.sleep(forTimeInterval: 0.1)
            _ = try? PostgresConnection(location: location).notify(channel, payload: "late")
            sent.signal()
        }
        #expect(try listener.waitForNotification(timeout: .seconds(10))?.payload == "late")
        sent.wait()
    }

    @Test("a listener whose connection is lost gets an error, not a hang")
    func lostWhileWaiting() throws {
        let listener = try TestServer.connect()
        try listener.listen("cart_lost")
        try terminate(listener)
        #expect(throws: PostgresError.self) { try listener.waitForNotification(timeout: .seconds(10)) }
    }
}
