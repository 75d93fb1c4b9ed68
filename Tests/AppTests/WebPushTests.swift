@testable import App
import Crypto
import Foundation
import Testing

/// The encryption and VAPID token of `WebPush`, against RFC 8291's worked example (section 5 and
/// appendix A) and by undoing them with the receiver's keys.
@Suite("Web Push encryption")
struct WebPushTests {
    static func b64(_ text: String) -> [UInt8] { WebPush.bytes(base64URL: text)! }

    @Test func encryptsTheRFC8291ExampleByteForByte() throws {
        let sender = try P256.KeyAgreement.PrivateKey(rawRepresentation: Self.b64("yfWPiYE-n46HLnH0KqZOF1fJJU3MYrct3AELtAQ-oRw"))
        #expect(
            WebPush.base64URL(sender.publicKey.x963Representation)
                == "BP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A8")
        let body = try WebPush.encrypt(
            Self.b64("V2hlbiBJIGdyb3cgdXAsIEkgd2FudCB0byBiZSBhIHdhdGVybWVsb24"),
            p256dh: Self.b64("BCVxsr7N_eNgVRqvHtD0zTZsEc6-VV-JvLexhqUzORcxaOzi6-AYWXvTBHm4bjyPjs7Vd8pZGH6SRpkNtoIAiw4"),
            auth: Self.b64("BTBZMqHH6r4Tts7J_aSIgg"), sender: sender, salt: Self.b64("DGv6ra1nlYgDCS1FRnbzlw"))
        #expect(
            WebPush.base64URL(body)
                == "DGv6ra1nlYgDCS1FRnbzlwAAEABBBP4z9KsN6nGRTbVYI_c7VJSPQTBtkgcy27mlmlMoZIIgDll6e3vCYLocInmYWAmS6TlzAC8wEqKK6PBru3jl7A_yl95bQpu6cVPTpK4Mqgkf1CXztLVBSt2Ks3oZwbuwXPXLWyouBWLVWGNWQexSgSxsj_Qulcy4a-fN"
        )
    }

    /// A fresh sender key and salt each time; the receiver's side of RFC 8291 gets the text back.
    @Test func theReceiverDecryptsAFreshMessage() throws {
        let receiver = P256.KeyAgreement.PrivateKey()
        let auth = WebPush.randomBytes(16)
        let text = Array(#"{"title":"Fieldhouse","body":"Olá","url":"/teams/x"}"#.utf8)
        let first = try WebPush.encrypt(text, p256dh: Array(receiver.publicKey.x963Representation), auth: auth)
        let second = try WebPush.encrypt(text, p256dh: Array(receiver.publicKey.x963Representation), auth: auth)
        #expect(first != second)
        let salt = Array(first[0..<16])
        #expect(first[16..<20] == [0, 0, 0x10, 0] && first[20] == 65)
        let senderPublic = try P256.KeyAgreement.PublicKey(x963Representation: first[21..<86])
        let shared = try receiver.sharedSecretFromKeyAgreement(with: senderPublic)
        let info = Array("WebPush: info".utf8) + [0] + Array(receiver.publicKey.x963Representation) + Array(senderPublic.x963Representation)
        let ikm = shared.hkdfDerivedSymmetricKey(using: SHA256.self, salt: auth, sharedInfo: info, outputByteCount: 32)
        let cek = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: aes128gcm\0".utf8), outputByteCount: 16)
        let nonce = HKDF<SHA256>.deriveKey(inputKeyMaterial: ikm, salt: salt, info: Array("Content-Encoding: nonce\0".utf8), outputByteCount: 12)
        let box = try AES.GCM.SealedBox(combined: nonce.withUnsafeBytes { Array($0) } + first[86...])
        let opened = try AES.GCM.open(box, using: cek)
        #expect(Array(opened) == text + [2])
    }

    @Test func refusesWhatCannotBeAPushMessage() throws {
        let receiver = Array(P256.KeyAgreement.PrivateKey().publicKey.x963Representation)
        #expect(throws: WebPush.Invalid.self) { try WebPush.encrypt(Array(repeating: 65, count: 4080), p256dh: receiver, auth: WebPush.randomBytes(16)) }
        #expect(throws: WebPush.Invalid.self) { try WebPush.encrypt([1], p256dh: receiver, auth: WebPush.randomBytes(15)) }
        #expect(throws: (any Error).self) { try WebPush.encrypt([1], p256dh: [4] + Array(repeating: 1, count: 64), auth: WebPush.randomBytes(16)) }
    }

    @Test func theVAPIDTokenIsSignedForTheEndpointsOrigin() throws {
        let key = P256.Signing.PrivateKey()
        let expires = Date(timeIntervalSince1970: 1_800_000_000)
        let header = try WebPush.vapidAuthorization(
            endpoint: URL(string: "https://push.example.net:443/send/abc?x=1")!, key: key, subject: "mailto:club@fieldhouse.test", expires: expires)
        let parts = header.components(separatedBy: ", ")
        #expect(parts.count == 2 && parts[0].hasPrefix("vapid t=") && parts[1] == "k=" + WebPush.base64URL(key.publicKey.x963Representation))
        let jwt = parts[0].dropFirst("vapid t=".count).split(separator: ".").map(String.init)
        #expect(jwt.count == 3)
        let claims = try JSONSerialization.jsonObject(with: Data(Self.b64(jwt[1]))) as? [String: Any]
        #expect(claims?["aud"] as? String == "https://push.example.net")
        #expect(claims?["exp"] as? Int == 1_800_000_000)
        #expect(claims?["sub"] as? String == "mailto:club@fieldhouse.test")
        let signature = try P256.Signing.ECDSASignature(rawRepresentation: Self.b64(jwt[2]))
        #expect(key.publicKey.isValidSignature(signature, for: Data((jwt[0] + "." + jwt[1]).utf8)))
        #expect(WebPush.origin(of: URL(string: "http://127.0.0.1:8123/push/1")!) == "http://127.0.0.1:8123")
    }

    @Test func theKeyIsMadeOnceAndKept() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldhouse-vapid-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let first = try VAPIDKey.load(dataDirectory: folder)
        let second = try VAPIDKey.load(dataDirectory: folder)
        #expect(first.publicKeyBase64URL == second.publicKeyBase64URL)
        #expect(WebPush.bytes(base64URL: first.publicKeyBase64URL)?.count == 65)
        let attributes = try FileManager.default.attributesOfItem(atPath: folder + "/vapid.key")
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["vapid.key"])
    }

    /// Processes starting at once on one data folder (a cluster) all end up with the first key written.
    @Test func processesStartingAtOnceAgreeOnOneKey() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("fieldhouse-vapid-" + UUID().uuidString).path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let keys = try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<16 { group.addTask { try VAPIDKey.load(dataDirectory: folder).publicKeyBase64URL } }
            return try await group.reduce(into: [String]()) { $0.append($1) }
        }
        #expect(keys.count == 16 && Set(keys).count == 1)
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["vapid.key"])
    }
}
