@testable import App
import Foundation
import SQLKit
import Testing

/// `User.Row` reads `users` with plain SQL on the hot paths. A column added to the table without
/// the row (or a row field whose column was renamed or dropped) would be read as nothing, or fail
/// only on the page that decodes it; this holds the two together on the database the suite runs on.
@Suite struct UserRowTests {
    @Test func theRowHasExactlyTheColumnsOfTheUsersTable() async throws {
        let fields = try KeyRecorder.keys(of: User.Row.self)
        #expect(fields.count > 20, "the recorder found only \(fields)")
        #expect(Set(fields).count == fields.count, "a column is read twice: \(fields)")
        try await withApp { app in
            let all = try await Self.columns(of: User.schema, on: app.db.sql)
            #expect(Self.readByNoRow.isSubset(of: all), "a column left out on purpose is gone: drop it from readByNoRow")
            let columns = all.filter { !Self.readByNoRow.contains($0) }
            #expect(columns.count > 20, "found only \(columns) in \(User.schema)")
            #expect(
                Set(columns) == Set(fields),
                "users has \(Set(columns).subtracting(fields).sorted()) that User.Row lacks; User.Row has \(Set(fields).subtracting(columns).sorted()) that users lacks"
            )
        }
    }

    /// Columns no page reads: `address_notice_at` is when the "someone tried to sign up with
    /// your address" mail last went out, read and written only by `AccountMail`'s one UPDATE.
    static let readByNoRow: Set<String> = ["address_notice_at"]

    /// The table's columns after every migration, as the database itself lists them.
    static func columns(of table: String, on sql: any SQLDatabase) async throws -> [String] {
        struct Name: Decodable { let name: String }
        if sql.dialect.name == "sqlite" {
            return try await sql.raw("SELECT name FROM pragma_table_info(\(bind: table))").all(decoding: Name.self).map(\.name)
        }
        return try await sql.raw(
            """
            SELECT column_name AS name FROM information_schema.columns
            WHERE table_name = \(bind: table) AND table_schema = current_schema()
            """
        ).all(decoding: Name.self).map(\.name)
    }
}

/// The coding keys a `Decodable` type asks for, in order: it is decoded once from a decoder that
/// writes down each key and answers it with a placeholder value.
enum KeyRecorder {
    static func keys<T: Decodable>(of type: T.Type) throws -> [String] {
        let log = Log()
        _ = try T(from: RecordingDecoder(log: log))
        return log.keys
    }

    final class Log { var keys: [String] = [] }

    struct Placeholder: Error {}

    struct RecordingDecoder: Decoder {
        let log: Log
        var codingPath: [any CodingKey] = []
        var userInfo: [CodingUserInfoKey: Any] = [:]

        func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
            KeyedDecodingContainer(Keyed<Key>(log: log))
        }
        func unkeyedContainer() throws -> any UnkeyedDecodingContainer { throw Placeholder() }
        func singleValueContainer() throws -> any SingleValueDecodingContainer { Single() }
    }

    /// A value for a field that is not a plain string, number or flag (a UUID, a date).
    struct Single: SingleValueDecodingContainer {
        var codingPath: [any CodingKey] = []
        func decodeNil() -> Bool { false }
        func decode(_ type: Bool.Type) throws -> Bool { false }
        func decode(_ type: String.Type) throws -> String { "00000000-0000-0000-0000-000000000000" }
        func decode(_ type: Double.Type) throws -> Double { 0 }
        func decode(_ type: Float.Type) throws -> Float { 0 }
        func decode(_ type: Int.Type) throws -> Int { 0 }
        func decode(_ type: Int8.Type) throws -> Int8 { 0 }
        func decode(_ type: Int16.Type) throws -> Int16 { 0 }
        func decode(_ type: Int32.Type) throws -> Int32 { 0 }
        func decode(_ type: Int64.Type) throws -> Int64 { 0 }
        func decode(_ type: UInt.Type) throws -> UInt { 0 }
        func decode(_ type: UInt8.Type) throws -> UInt8 { 0 }
        func decode(_ type: UInt16.Type) throws -> UInt16 { 0 }
        func decode(_ type: UInt32.Type) throws -> UInt32 { 0 }
        func decode(_ type: UInt64.Type) throws -> UInt64 { 0 }
        func decode<T: Decodable>(_ type: T.Type) throws -> T { try T(from: RecordingDecoder(log: Log())) }
    }

    /// Routes a plain value through the generic `decode`, which writes the key down.
    struct Wrapped<Value: Decodable>: Decodable {
        let value: Value
        init(from decoder: any Decoder) throws { value = try decoder.singleValueContainer().decode(Value.self) }
    }

    struct Keyed<Key: CodingKey>: KeyedDecodingContainerProtocol {
        let log: Log
        var codingPath: [any CodingKey] = []
        var allKeys: [Key] { [] }
        func contains(_ key: Key) -> Bool { true }
        func decodeNil(forKey key: Key) throws -> Bool {
            log.keys.append(key.stringValue)
            return true
        }
        func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
            log.keys.append(key.stringValue)
            return try T(from: RecordingDecoder(log: Log()))
        }
        func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decode(Wrapped<Bool>.self, forKey: key).value }
        func decode(_ type: String.Type, forKey key: Key) throws -> String { try decode(Wrapped<String>.self, forKey: key).value }
        func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decode(Wrapped<Double>.self, forKey: key).value }
        func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decode(Wrapped<Float>.self, forKey: key).value }
        func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decode(Wrapped<Int>.self, forKey: key).value }
        func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decode(Wrapped<Int8>.self, forKey: key).value }
        func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decode(Wrapped<Int16>.self, forKey: key).value }
        func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decode(Wrapped<Int32>.self, forKey: key).value }
        func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decode(Wrapped<Int64>.self, forKey: key).value }
        func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decode(Wrapped<UInt>.self, forKey: key).value }
        func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decode(Wrapped<UInt8>.self, forKey: key).value }
        func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decode(Wrapped<UInt16>.self, forKey: key).value }
        func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decode(Wrapped<UInt32>.self, forKey: key).value }
        func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decode(Wrapped<UInt64>.self, forKey: key).value }
        func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
            log.keys.append(key.stringValue)
            return nil
        }
        func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
            throw Placeholder()
        }
        func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer { throw Placeholder() }
        func superDecoder() throws -> any Decoder { throw Placeholder() }
        func superDecoder(forKey key: Key) throws -> any Decoder { throw Placeholder() }
    }
}
