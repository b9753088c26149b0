import FrameSupport
import Testing

@Suite("SHA-256 and Base64 for the HTML page's Content-Security-Policy")
struct SHA256Tests {
    /// FIPS 180-4's examples (one block, two blocks, none), and a million `a`s (many blocks),
    /// as hexadecimal digests.
    @Test(
        "FIPS 180-4 test vectors",
        arguments: [
            ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
            ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
            (
                "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
                "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
            ),
            (
                String(repeating: "a", count: 1_000_000),
                "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
            ),
        ])
    func vectors(input: String, hex: String) {
        let digest = SHA256.digest(Array(input.utf8))
        #expect(
            digest.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }
                .joined() == hex)
    }

    /// Every padding case of RFC 4648's examples, and the digest form a CSP source takes.
    @Test("Base64 as RFC 4648 writes it, and a CSP hash source")
    func base64() {
        let cases = [
            "": "", "f": "Zg==", "fo": "Zm8=", "foo": "Zm9v", "foob": "Zm9vYg==", "fooba": "Zm9vYmE=",
            "foobar": "Zm9vYmFy",
        ]
        for (input, expected) in cases { #expect(SHA256.base64(Array(input.utf8)) == expected, "\(input)") }
        #expect(SHA256.base64Digest(of: "abc") == "ungWv48Bz+pBQUDeXa4iI7ADYaOWF3qctBD/YfIAFa0=")
    }
}
