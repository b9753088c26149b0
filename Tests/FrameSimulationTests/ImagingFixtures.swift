import Foundation

@testable import FrameSimulation

/// The PNG fixtures made by tools/make_png_fixtures.py, and what they should decode to.
enum ImagingFixtures {
    /// What expected.json records for a valid fixture (computed from the generated samples).
    struct Expected: Decodable {
        var width: Int
        var height: Int
        var rgbaCRC32: UInt32
        var inflatedSize: Int
        var inflatedCRC32: UInt32
        var filters: [Int]
    }

    /// The valid fixtures, by name without extension; expected.json has an entry for each.
    static let validNames = [
        "avatar-gray-96x96", "avatar-rgba-96x96", "fixed-huffman-48x48", "gray-alpha-64x64", "one-pixel-1x1",
        "palette-300x300", "photo-1200x900", "photo-640x480", "rgb-color-key-32x32", "split-idat-64x64",
        "stored-blocks-32x32",
    ]

    /// The fixtures whose inflated IDAT stream, as Python's zlib produced it, is stored as `.raw`.
    static let rawNames = ["avatar-rgba-96x96", "palette-300x300", "stored-blocks-32x32"]

    static let directory = Bundle.module.resourceURL!.appendingPathComponent("Fixtures/PNG")

    /// The bytes of `file` (a name with its extension).
    static func bytes(_ file: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: directory.appendingPathComponent(file)))
    }

    /// The bytes of the PNG fixture `name`.
    static func png(_ name: String) throws -> [UInt8] { try bytes(name + ".png") }

    /// Everything in expected.json.
    static func expectations() throws -> [String: Expected] {
        try JSONDecoder().decode([String: Expected].self, from: Data(bytes("expected.json")))
    }

    /// The expectation for one fixture.
    static func expected(_ name: String) throws -> Expected {
        guard let expected = try expectations()[name] else { throw MissingExpectation(name: name) }
        return expected
    }

    struct MissingExpectation: Error { var name: String }

    /// photo-1200x900 decoded once for every test that needs realistic opaque content.
    static func photo() throws -> Bitmap { try decodedPhoto.get() }

    private static let decodedPhoto = Result { try PNGDecoder.decode(png("photo-1200x900")) }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc = CRC32()
        crc.update(bytes[...])
        return crc.value
    }
}
