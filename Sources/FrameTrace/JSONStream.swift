/// Compact JSON written straight into bytes, with no value tree: objects and arrays open and
/// close, members are a key and a value, and the commas between them are the stream's to write.
///
/// `report --format json` writes its frames this way: built as a ``JSONValue`` per frame, the
/// same text took several times as long, most of it allocating and freeing the trees.
///
/// ```swift
/// var json = JSONStream()
/// json.openObject()
/// json.member("frames", 2)
/// json.key("lanes"); json.openArray(); json.value("main"); json.closeArray()
/// json.closeObject()   // {"frames":2,"lanes":["main"]}
/// ```
///
/// One flag is all the comma bookkeeping needs: a value, or a container's close, leaves it set,
/// so the next key or element writes a comma first; an open or a key clears it. The stream does
/// not check nesting: its caller writes a well-formed document, which tests parse back.
///
/// The text goes into a buffer the stream owns (so it cannot be copied), each write making room
/// for itself once and then storing bytes without the bounds and uniqueness checks an array's
/// `append` makes per byte.
package struct JSONStream: ~Copyable {
    private var base: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    /// The number of bytes written since the last ``flush(_:)``.
    package private(set) var count = 0
    /// Whether the next key or element needs a comma before it.
    private var afterValue = false

    package init(capacity: Int = 1 << 16) {
        self.capacity = max(capacity, 64)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// A whole document's text: `body` writes an object's members.
    package static func text(_ body: (inout JSONStream) -> Void) -> String {
        var json = JSONStream(capacity: 1 << 12)
        json.object(body)
        return String(decoding: UnsafeBufferPointer(start: json.base, count: json.count), as: UTF8.self)
    }

    /// The bytes written since the last flush.
    package var bytes: [UInt8] { Array(UnsafeBufferPointer(start: base, count: count)) }

    /// Hands the bytes written so far to `write` and empties the buffer.
    package mutating func flush(_ write: ([UInt8]) -> Void) {
        write(bytes)
        count = 0
    }

    /// Makes room for `extra` more bytes.
    @inline(__always)
    private mutating func reserve(_ extra: Int) {
        if extra > capacity &- count { grow(extra) }
    }

    private mutating func grow(_ extra: Int) {
        let needed = count + extra
        var newCapacity = capacity * 2
        while newCapacity < needed { newCapacity *= 2 }
        let newBase = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        newBase.update(from: base, count: count)
        base.deallocate()
        base = newBase
        capacity = newCapacity
    }

    /// Stores a byte there is room for.
    @inline(__always)
    private mutating func put(_ byte: UInt8) {
        base[count] = byte
        count &+= 1
    }

    /// Appends bytes as they are.
    @inline(__always)
    private mutating func put(_ source: UnsafeBufferPointer<UInt8>) {
        reserve(source.count)
        if let address = source.baseAddress { (base + count).update(from: address, count: source.count) }
        count &+= source.count
    }

    /// Appends one byte as it is (a line feed after the document, say).
    @inline(__always)
    package mutating func raw(_ byte: UInt8) {
        reserve(1)
        put(byte)
    }

    @inline(__always)
    private mutating func separate() {
        if afterValue {
            reserve(1)
            put(UInt8(ascii: ","))
        }
    }

    /// Opens an object (as a value: an element, a member's value or the document).
    @inline(__always)
    package mutating func openObject() {
        separate()
        raw(UInt8(ascii: "{"))
        afterValue = false
    }

    /// Closes the innermost open object.
    @inline(__always)
    package mutating func closeObject() {
        raw(UInt8(ascii: "}"))
        afterValue = true
    }

    /// Opens an array.
    @inline(__always)
    package mutating func openArray() {
        separate()
        raw(UInt8(ascii: "["))
        afterValue = false
    }

    /// Closes the innermost open array.
    @inline(__always)
    package mutating func closeArray() {
        raw(UInt8(ascii: "]"))
        afterValue = true
    }

    /// Writes a member's key; its value comes next. `key` is written as it is, so it must be text
    /// that needs no escaping (the schema's own keys: ASCII letters, digits, `-` and `_`).
    @inline(__always)
    package mutating func key(_ key: StaticString) {
        let length = key.utf8CodeUnitCount
        reserve(length &+ 4)
        if afterValue { put(UInt8(ascii: ",")) }
        put(UInt8(ascii: "\""))
        (base + count).update(from: key.utf8Start, count: length)
        count &+= length
        put(UInt8(ascii: "\""))
        put(UInt8(ascii: ":"))
        afterValue = false
    }

    /// Writes a member's key from text, escaped (a category's or a lane's name).
    @inline(__always)
    package mutating func key(text: String) {
        separate()
        string(text)
        raw(UInt8(ascii: ":"))
        afterValue = false
    }

    /// Appends a quoted, escaped string (``JSONOutput/escape(_:into:)``'s escapes). Text with
    /// nothing to escape, most names, is copied as it is.
    private mutating func string(_ original: String) {
        var text = original
        text.withUTF8 { utf8 in
            reserve(utf8.count &+ 2)
            put(UInt8(ascii: "\""))
            var plain = true
            for byte in utf8 where byte < 0x20 || byte >= 0x7F || byte == 0x22 || byte == 0x5C || byte == 0x23 {
                plain = false
                break
            }
            if plain {
                put(utf8)
            } else {
                var escaped: [UInt8] = []
                JSONOutput.escape(original, into: &escaped)
                escaped.withUnsafeBufferPointer { put($0) }
            }
            raw(UInt8(ascii: "\""))
        }
    }

    /// Appends a signed decimal integer.
    @inline(__always)
    private mutating func integer(_ value: Int64) {
        reserve(20)
        if value < 0 { put(UInt8(ascii: "-")) }
        var rest = value.magnitude
        var digits = 1
        var limit: UInt64 = 10
        while digits < 20, rest >= limit {
            digits &+= 1
            limit = limit &* 10
        }
        var position = count &+ digits
        count = position
        repeat {
            position &-= 1
            base[position] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        } while rest > 0
    }

    // MARK: Values

    /// Writes an integer.
    @inline(__always)
    package mutating func value(_ value: Int64) {
        separate()
        integer(value)
        afterValue = true
    }

    /// Writes a count.
    @inline(__always)
    package mutating func value(_ value: Int) { self.value(Int64(value)) }

    /// Writes a number; NaN and infinities, which JSON cannot hold, as `null`.
    @inline(__always)
    package mutating func value(_ value: Double) {
        separate()
        if value.isFinite, value == value.rounded(), abs(value) < 1e15 {
            integer(Int64(value))  // as JSONOutput writes a whole number
        } else {
            var output = JSONOutput()
            output.append(double: value)
            output.bytes.withUnsafeBufferPointer { put($0) }
        }
        afterValue = true
    }

    /// Writes a string, quoted and escaped.
    @inline(__always)
    package mutating func value(_ value: String) {
        separate()
        string(value)
        afterValue = true
    }

    /// Writes `true` or `false`.
    @inline(__always)
    package mutating func value(_ value: Bool) {
        separate()
        let text: StaticString = value ? "true" : "false"
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        afterValue = true
    }

    /// Writes `null`.
    @inline(__always)
    package mutating func null() {
        separate()
        let text: StaticString = "null"
        put(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        afterValue = true
    }

    /// Writes a value tree (a budget's argument, say) as compact JSON.
    package mutating func value(_ value: JSONValue) {
        separate()
        var output = JSONOutput()
        output.append(value: value)
        output.bytes.withUnsafeBufferPointer { put($0) }
        afterValue = true
    }

    /// Writes the integer, or `null`.
    @inline(__always)
    package mutating func value(_ value: Int64?) {
        if let value { self.value(value) } else { null() }
    }

    /// Writes the count, or `null`.
    @inline(__always)
    package mutating func value(_ value: Int?) {
        if let value { self.value(Int64(value)) } else { null() }
    }

    /// Writes the number, or `null`.
    @inline(__always)
    package mutating func value(_ value: Double?) {
        if let value { self.value(value) } else { null() }
    }

    /// Writes the string, or `null`.
    @inline(__always)
    package mutating func value(_ value: String?) {
        if let value { self.value(value) } else { null() }
    }

    /// Writes the Boolean, or `null`.
    @inline(__always)
    package mutating func value(_ value: Bool?) {
        if let value { self.value(value) } else { null() }
    }

    // MARK: Members

    /// Writes `"key":value` for an integer.
    @inline(__always)
    package mutating func member(_ key: StaticString, _ value: Int64) {
        self.key(key)
        self.value(value)
    }

    /// Writes `"key":value` for a count.
    @inline(__always)
    package mutating func member(_ key: StaticString, _ value: Int) {
        self.key(key)
        self.value(Int64(value))
    }

    /// Writes `"key":value` for a number.
    @inline(__always)
    package mutating func member(_ key: StaticString, _ value: Double) {
        self.key(key)
        self.value(value)
    }

    /// Writes `"key":value` for a string.
    @inline(__always)
    package mutating func member(_ key: StaticString, _ value: String) {
        self.key(key)
        self.value(value)
    }

    /// Writes `"key":value` for a Boolean.
    @inline(__always)
    package mutating func member(_ key: StaticString, _ value: Bool) {
        self.key(key)
        self.value(value)
    }

    /// Writes `"key":value` for an optional integer, `null` when it is `nil`.
    @inline(__always)
    package mutating func member(_ key: StaticString, _ value: Int64?) {
        self.key(key)
        self.value(value)
    }

    /// Writes `"key":value` for an optional count, `null` when it is `nil`.
    @inline(__always)
    package mutating func member(_ key: StaticString, _ value: Int?) {
        self.key(key)
        self.value(value)
    }

    /// Writes `"key":value` for an optional number, `null` when it is `nil`.
    @inline(__always)
    package mutating func member(_ key: StaticString, _ value: Double?) {
        self.key(key)
        self.value(value)
    }

    /// Writes `"key":value` for an optional string, `null` when it is `nil`.
    @inline(__always)
    package mutating func member(_ key: StaticString, _ value: String?) {
        self.key(key)
        self.value(value)
    }

    /// Writes `"key":value` for an optional Boolean, `null` when it is `nil`.
    @inline(__always)
    package mutating func member(_ key: StaticString, _ value: Bool?) {
        self.key(key)
        self.value(value)
    }

    /// Writes `"key":{...}`, the object's members written by `body`.
    @inline(__always)
    package mutating func object(_ key: StaticString, _ body: (inout JSONStream) -> Void) {
        self.key(key)
        openObject()
        body(&self)
        closeObject()
    }

    /// Writes `"key":[...]`, the elements written by `body`.
    @inline(__always)
    package mutating func array(_ key: StaticString, _ body: (inout JSONStream) -> Void) {
        self.key(key)
        openArray()
        body(&self)
        closeArray()
    }

    /// Writes `{...}` as a value, the members written by `body`.
    @inline(__always)
    package mutating func object(_ body: (inout JSONStream) -> Void) {
        openObject()
        body(&self)
        closeObject()
    }
}
