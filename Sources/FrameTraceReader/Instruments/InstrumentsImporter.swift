@_spi(FramescopeInternals) import FrameTrace

/// Reads `xcrun xctrace export` XML, one recording from one document or several (a directory of
/// exported tables), into a ``Trace``.
///
/// What each table becomes (``InstrumentsTable``):
/// - signpost intervals: complete spans on the thread that began them, named by the signpost
///   (a framescope `span` by its message), in the signpost's category, with `subsystem` and
///   `message` arguments; framescope's frames (`frame` intervals whose category is `frame` or
///   `framescope`, begin message `index N since-vsync S ns budget B ns` or `index N budget B ns`)
///   become frame spans with framescope's frame arguments;
/// - signpost events: instants, except framescope's spans measured after the fact
///   (`measured span: N ns`, or `measured span: N ns ended E ns ago`: FrameTrace's
///   `SignpostMessage`), which become the spans they were, ending at the event or E before it;
/// - Apple's tables (hitches and their stages, displayed surfaces, vsyncs, displays, hangs):
///   instants named after the row's kind (``InstrumentsTable/eventName``), in the table's
///   category, at the row's start, carrying every column under Apple's own column name
///   (`Duration`, `Is System`, `Potential Issue`) for the analysis to read;
/// - the table of contents (`xctrace export --toc`): the run's duration, device, template and
///   start, as ``TraceMetadata/extra`` arguments (``TOCKey``).
///
/// Tables framescope does not read are counted once each in the diagnostics.
package enum InstrumentsImporter {
    /// The producer written into the trace's metadata (the analysis reads an Instruments
    /// recording's tables by it).
    package static let producer = "xctrace export"

    /// Metadata keys of the run's table of contents.
    package enum TOCKey {
        package static let duration = "instruments-duration-ns"
        package static let device = "instruments-device"
        package static let template = "instruments-template"
        package static let startDate = "instruments-start-date"
    }

    /// Argument keys of signpost spans.
    package enum Key {
        package static let subsystem = "subsystem"
        package static let message = "message"
        /// The column names for people of Apple's tables that the analysis reads.
        package static let duration = "Duration"
        package static let isSystem = "Is System"
        package static let potentialIssue = "Potential Issue"
        package static let display = "Display"
        package static let maxRefreshRate = "Max Refresh Rate"
        package static let mainDisplay = "Main Display"
        package static let hangType = "Hang Type"
    }

    /// Whether bytes look like XML: a leading `<?xml`, `<trace-query-result` or `<trace-toc`
    /// after an optional byte order mark and white space.
    package static func looksLikeXML(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        if bytes.count >= 3, bytes[0] == 0xEF, bytes[1] == 0xBB, bytes[2] == 0xBF { index = 3 }
        while index < bytes.count,
            bytes[index] == 0x20 || bytes[index] == 0x0A || bytes[index] == 0x0D
                || bytes[index] == 0x09
        {
            index += 1
        }
        for prefix in ["<?xml", "<trace-query-result", "<trace-toc", "<!DOCTYPE"] {
            let utf8 = Array(prefix.utf8)
            if bytes.count - index >= utf8.count, zip(bytes[index...], utf8).allSatisfy({ $0 == $1 }) { return true }
        }
        return false
    }

    /// Reads the documents of one recording, in order, into one trace.
    /// - Parameters:
    ///   - releasesInput: Whether the buffers are private file mappings whose pages may be
    ///   handed back once read.
    ///   - arguments: The event arguments to keep.
    ///   - names: The documents' file names, which start an error's message when there are several.
    static func parse(
        _ documents: [UnsafeBufferPointer<UInt8>], releasesInput: Bool, names: [String] = [],
        arguments: TraceReader.ArgumentSelection = .all
    ) -> Result<Trace, TraceReadError> {
        var builder = InstrumentsTraceBuilder()
        builder.keptKeys = arguments.keys
        for (number, input) in documents.enumerated() {
            var document = InstrumentsDocument(input)
            builder.release = ReadPageRelease(input, isFileMapping: releasesInput)
            do {
                try document.read(into: &builder)
            } catch {
                var located = error.located(in: input)
                if number < names.count, documents.count > 1 {
                    located.message = names[number] + ": " + located.message
                }
                return .failure(located)
            }
            builder.apply(document.toc)
            if document.rowsWithoutSchema > 0 {
                builder.trace.log.add(
                    .invalidEvent, nil, "\(document.rowsWithoutSchema) rows outside a table with a schema, not read")
            }
        }
        return .success(builder.finished())
    }
}
