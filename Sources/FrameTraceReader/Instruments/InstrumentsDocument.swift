import FrameTrace

/// Where ``InstrumentsDocument`` hands what it reads: the values it fills, each table's schema
/// and each row's cells.
protocol InstrumentsRowSink {
    var values: InstrumentsValues { get set }
    /// A table starts.
    mutating func begin(_ schema: InstrumentsSchema)
    /// A row of the current table, whose end tag ends before `position`.
    mutating func add(_ cells: [UInt32], at position: Int) throws(TraceReadError)
}

/// Reads one `xctrace export` document, streaming: a `<trace-query-result>` (tables: a
/// `<schema>` and its `<row>`s per `<node>`) or a `<trace-toc>` (the run's summary). Each row is
/// handed on as it ends, as the cells of its columns, so that no more than one row's cells are
/// held beyond the values later rows may refer to.
struct InstrumentsDocument {
    var scanner: XMLScanner
    /// What the run's table of contents said, when the document is one.
    var toc = InstrumentsTOC()
    /// Rows of tables before their schema: counted, not read.
    var rowsWithoutSchema = 0

    init(_ input: UnsafeBufferPointer<UInt8>) {
        scanner = XMLScanner(input)
    }

    /// The current attribute named `name`'s decoded value.
    private func attribute(_ name: StaticString) throws(TraceReadError) -> String? {
        guard let attribute = scanner.attribute(name) else { return nil }
        return try scanner.decode(attribute.value, references: attribute.hasReference)
    }

    private func integerAttribute(_ name: StaticString) throws(TraceReadError) -> Int64? {
        guard let attribute = scanner.attribute(name) else { return nil }
        switch scanner.integer(attribute.value) {
        case .value(let value): return value
        case .notANumber:
            throw XMLScanner.error("attribute \(name) is not an integer", at: attribute.value.lowerBound)
        case .overflow:
            throw XMLScanner.error("attribute \(name) does not fit in 64 bits", at: attribute.value.lowerBound)
        }
    }

    /// Reads the whole document; `table` is called with each schema, `row` with each row's cells.
    mutating func read(into sink: inout some InstrumentsRowSink) throws(TraceReadError) {
        sink.values.startDocument()
        guard case .start(let root, let selfClosing)? = try nextElementToken() else {
            throw XMLScanner.error("expected a root element", at: scanner.position)
        }
        if scanner.bytes(root, equal: "trace-toc") {
            if !selfClosing { try readTOC() }
        } else if scanner.bytes(root, equal: "trace-query-result") {
            if !selfClosing { try readNodes(into: &sink) }
        } else {
            throw XMLScanner.error(
                "<\(scanner.string(root))> is not an xctrace export (<trace-query-result> or <trace-toc>)",
                at: root.lowerBound - 1)
        }
        guard try scanner.next() == nil else {
            throw XMLScanner.error("content after the root element", at: scanner.position)
        }
    }

    /// The next start or end tag, past text that is white space.
    private mutating func nextElementToken() throws(TraceReadError) -> XMLScanner.Token? {
        while let token = try scanner.next() {
            if case .text = token { continue }
            return token
        }
        return nil
    }

    /// Skips the rest of the element whose start tag was just read.
    private mutating func skipElement() throws(TraceReadError) {
        let depth = scanner.depth
        while scanner.depth >= depth {
            guard try scanner.next() != nil else { return }
        }
    }

    private mutating func readNodes(into sink: inout some InstrumentsRowSink) throws(TraceReadError) {
        while let token = try nextElementToken() {
            guard case .start(let name, let selfClosing) = token else { return }
            guard !selfClosing else { continue }
            guard scanner.bytes(name, equal: "node") else {
                try skipElement()
                continue
            }
            var hasSchema = false
            while let inner = try nextElementToken() {
                guard case .start(let innerName, let innerClosing) = inner else { break }
                if innerClosing { continue }
                if scanner.bytes(innerName, equal: "schema") {
                    sink.begin(try readSchema())
                    hasSchema = true
                } else if scanner.bytes(innerName, equal: "row") {
                    let cells = try readRow(into: &sink.values)
                    if hasSchema {
                        try sink.add(cells, at: scanner.position)
                    } else {
                        rowsWithoutSchema += 1
                    }
                } else {
                    try skipElement()
                }
            }
        }
    }

    private mutating func readSchema() throws(TraceReadError) -> InstrumentsSchema {
        var schema = InstrumentsSchema(name: try attribute("name") ?? "", mnemonics: [], names: [])
        while let token = try nextElementToken() {
            guard case .start(let name, let selfClosing) = token else { break }
            if selfClosing { continue }
            guard scanner.bytes(name, equal: "col") else {
                try skipElement()
                continue
            }
            var mnemonic = ""
            var title = ""
            while let field = try nextElementToken() {
                guard case .start(let fieldName, let fieldClosing) = field else { break }
                if fieldClosing { continue }
                let isMnemonic = scanner.bytes(fieldName, equal: "mnemonic")
                let isName = scanner.bytes(fieldName, equal: "name")
                let text = try readText()
                if isMnemonic { mnemonic = text } else if isName { title = text }
            }
            schema.mnemonics.append(mnemonic)
            schema.names.append(title)
        }
        return schema
    }

    /// The text of the element whose start tag was just read, up to its end tag.
    private mutating func readText() throws(TraceReadError) -> String {
        var text = ""
        while let token = try scanner.next() {
            switch token {
            case .text(let range, let references, let isRaw):
                text += try scanner.decode(range, references: references && !isRaw)
            case .start(_, let selfClosing):
                if !selfClosing { try skipElement() }
            case .end:
                return text
            }
        }
        return text
    }

    private mutating func readRow(into values: inout InstrumentsValues) throws(TraceReadError) -> [UInt32] {
        var cells: [UInt32] = []
        while let token = try nextElementToken() {
            guard case .start(let name, let selfClosing) = token else { break }
            cells.append(try readValue(name: name, selfClosing: selfClosing, into: &values))
        }
        return cells
    }
}

extension InstrumentsDocument {
    /// One typed value (a cell, or a value nested in one), from its start tag just read: a
    /// `ref` to an earlier value, `<sentinel/>` (cell 0), or a new value with its text, display
    /// text and nested values, registered under its `id`.
    mutating func readValue(
        name: Range<Int>, selfClosing: Bool, into values: inout InstrumentsValues
    ) throws(TraceReadError) -> UInt32 {
        let tagStart = name.lowerBound - 1
        if scanner.bytes(name, equal: "sentinel") {
            if !selfClosing { try skipElement() }
            return 0
        }
        if let reference = try integerAttribute("ref") {
            guard let cell = values.cell(id: reference) else {
                throw XMLScanner.error("ref=\"\(reference)\" names no value defined before it", at: tagStart)
            }
            if !selfClosing { try skipElement() }
            return cell
        }
        let id = try integerAttribute("id")
        guard let tag = values.internTag(UnsafeBufferPointer(rebasing: scanner.input[name])) else {
            throw XMLScanner.error(
                "more than \(InstrumentsValues.maximumTags) distinct element names (an export uses a few dozen)",
                at: tagStart)
        }
        var cell = InstrumentsValues.Cell(tag: tag)
        if values.keepsFormat(tag), let format = try attribute("fmt") { cell.format = values.intern(format) }
        var children: [UInt32] = []
        if !selfClosing {
            try readContent(of: &cell, children: &children, into: &values)
        }
        guard children.count <= Int(UInt8.max) else {
            throw XMLScanner.error("a value with over 255 parts", at: tagStart)
        }
        cell.firstChild = UInt32(truncatingIfNeeded: values.childLinks.count)
        cell.childCount = UInt8(children.count)
        values.childLinks.append(contentsOf: children)
        guard values.cells.count < Int(UInt32.max) else { throw XMLScanner.error("too many values", at: tagStart) }
        let index = UInt32(values.cells.count)
        values.cells.append(cell)
        if let id {
            guard id > 0 else { throw XMLScanner.error("id=\"\(id)\" is not a positive integer", at: tagStart) }
            if values.cell(id: id) != nil { throw XMLScanner.error("id=\"\(id)\" defined twice", at: tagStart) }
            values.define(id: id, cell: index)
        }
        return index
    }

    private mutating func readContent(
        of cell: inout InstrumentsValues.Cell, children: inout [UInt32], into values: inout InstrumentsValues
    ) throws(TraceReadError) {
        var textRange: Range<Int>?
        var extra = ""
        var references = false
        while let token = try scanner.next() {
            switch token {
            case .text(let range, let hasReference, let isRaw):
                if textRange == nil, !isRaw {
                    textRange = range
                    references = hasReference
                } else {
                    extra += try scanner.decode(range, references: hasReference && !isRaw)
                }
            case .start(let name, let selfClosing):
                children.append(try readValue(name: name, selfClosing: selfClosing, into: &values))
            case .end:
                guard children.isEmpty else { return }  // a container: its text is layout
                if let textRange, extra.isEmpty, !references {
                    switch scanner.integer(textRange) {
                    case .value(let number):
                        cell.number = number
                        cell.flags |= InstrumentsValues.Cell.hasNumber
                        if values.isNumeric(cell.tag) { return }
                    case .overflow:
                        cell.flags |= InstrumentsValues.Cell.overflows
                        if values.isNumeric(cell.tag) { return }
                    case .notANumber: break
                    }
                }
                var text =
                    try textRange.map { (range) throws(TraceReadError) in
                        try scanner.decode(range, references: references)
                    } ?? ""
                text += extra
                if !text.isEmpty { cell.text = values.intern(text) }
                return
            }
        }
    }
}

/// What `xctrace export --toc` says about a run: its length, device, template and start.
package struct InstrumentsTOC: Sendable, Hashable {
    /// The run's duration, in nanoseconds.
    package var durationNanoseconds: Int64?
    /// The device's name and model, as the TOC writes them.
    package var device: String?
    /// The recording template's name (`Animation Hitches`).
    package var template: String?
    /// When the run started, as the TOC writes it.
    package var startDate: String?
}

extension InstrumentsDocument {
    /// Reads `<trace-toc>`: the first run's `<info>` (`<target><device name= model= os-version=>`,
    /// `<summary><start-date>`, `<duration>` in seconds, `<template-name>`).
    mutating func readTOC() throws(TraceReadError) {
        var path: [String] = []
        var runs = 0
        while let token = try scanner.next() {
            switch token {
            case .start(let name, let selfClosing):
                let tag = scanner.string(name)
                if tag == "run" { runs += 1 }
                if runs <= 1, tag == "device" {
                    let parts = [try attribute("name"), try attribute("model"), try attribute("os-version")]
                    toc.device = parts.compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: ", ")
                }
                if !selfClosing { path.append(tag) }
            case .end:
                if path.popLast() == nil { return }
            case .text(let range, let references, let isRaw):
                guard runs <= 1, let tag = path.last else { continue }
                let text = try scanner.decode(range, references: references && !isRaw)
                readTOCField(tag, text)
            }
        }
    }

    private mutating func readTOCField(_ tag: String, _ text: String) {
        let trimmed = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard !trimmed.isEmpty else { return }
        switch tag {
        case "start-date": toc.startDate = trimmed
        case "template-name": toc.template = trimmed
        case "duration":
            if let seconds = Double(trimmed), seconds.isFinite, seconds >= 0, seconds < 1e9 {
                toc.durationNanoseconds = Int64((seconds * 1e9).rounded())
            }
        default: break
        }
    }
}
