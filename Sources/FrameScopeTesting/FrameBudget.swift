import FrameAnalysis
public import FrameScope
public import FrameTrace
import FrameTraceReader

/// A budget file, read for a test: the same format, the same rules and the same verdicts as
/// `framescope check`, so a performance gate can be a test beside the code it guards.
///
/// Read the budget once, record frames on a ``TestRecorder`` (its clock moves only when the test
/// moves it, so the verdict is the same on every machine), and check what was recorded:
///
/// ```swift
/// let budget = try FrameBudget(json: #"{"version": 1, "fps": 60, "limits": {"hitch-time-ratio": 5}}"#)
/// let test = TestRecorder()
/// // ... record frames with test.recorder.withFrame(vsync:deadline:index:) ...
/// let verdict = budget.check(test)
/// #expect(verdict.passed, "\(verdict)")   // a failure names each broken rule, its figure and its limit
/// ```
///
/// The budget is parsed and checked by the code behind `framescope check`, so a test and the
/// command line cannot disagree: a rule's figure is measured the same way, a value exactly at its
/// limit passes, and a check that checks nothing (a trace without frames, a budget with no rule
/// for the trace, a rule on a category no trace has) fails instead of passing. The format is
/// documented key by key in the FrameScope catalog's Continuous Integration article.
public struct FrameBudget: Sendable, Hashable {
    /// The parsed budget.
    let budget: Budget
    /// The budget's name in verdicts: the file's path as given, or ``inlineSource``.
    public let source: String

    /// How verdicts name a budget that was given as JSON rather than as a file.
    public static let inlineSource = "(inline JSON)"

    /// The name a recording is checked under when the test gives none; trace sections of the
    /// budget match it as they would match a trace's file name.
    public static let recordingName = "recording"

    /// Reads a budget file, as `framescope check --budget FILE` does.
    ///
    /// ```swift
    /// let budget = try FrameBudget(contentsOf: "Traces/budgets/feed-60fps.json")
    /// ```
    /// - Parameter path: The budget file's path, absolute or relative to the working directory.
    /// - Throws: ``FrameBudgetError``: ``FrameBudgetError/Code/unreadableFile`` when the file
    ///   cannot be read, else the budget's problem with its JSON path (or line and column).
    public init(contentsOf path: String) throws(FrameBudgetError) {
        let bytes: [UInt8]
        do {
            bytes = try InputFile.bytes(contentsOf: path)
        } catch {
            throw FrameBudgetError(reading: error, file: path)
        }
        try self.init(bytes: bytes, source: path)
    }

    /// Reads a budget from JSON text.
    ///
    /// ```swift
    /// let budget = try FrameBudget(json: #"{"version": 1, "limits": {"frozen-frames": 0}}"#)
    /// ```
    /// - Parameter json: The budget file's contents.
    /// - Throws: ``FrameBudgetError`` naming the JSON path of the problem (or its line and column
    ///   when the text is not JSON).
    public init(json: String) throws(FrameBudgetError) {
        try self.init(bytes: Array(json.utf8), source: Self.inlineSource)
    }

    /// Reads a budget from UTF-8 JSON bytes, such as `Data`.
    ///
    /// ```swift
    /// let budget = try FrameBudget(json: Data(contentsOf: budgetURL))
    /// ```
    /// - Parameter json: The budget file's contents.
    /// - Throws: ``FrameBudgetError`` naming the JSON path of the problem (or its line and column
    ///   when the bytes are not JSON).
    public init(json: some Collection<UInt8>) throws(FrameBudgetError) {
        try self.init(bytes: json, source: Self.inlineSource)
    }

    private init(bytes: some Collection<UInt8>, source: String) throws(FrameBudgetError) {
        do {
            budget = try Budget.parse(bytes)
        } catch {
            throw FrameBudgetError(budget: error, file: source == Self.inlineSource ? nil : source)
        }
        self.source = source
    }

    /// Checks a trace against the budget.
    ///
    /// The trace is analysed as `framescope check` analyses a trace file: frames from the trace's
    /// own frame spans (`Recorder.withFrame`) on its main thread, judged at the budget's `fps`
    /// when it has one.
    ///
    /// ```swift
    /// let verdict = budget.check(recorder.snapshot(), named: "feed-scroll--texture.json")
    /// ```
    /// - Parameters:
    ///   - trace: The trace, for example a recorder's `snapshot()`.
    ///   - name: The name the budget's trace sections match, as they match a trace's file name.
    /// - Returns: The verdict: every rule that applies, and whether the trace is within them.
    public func check(_ trace: consuming Trace, named name: String = FrameBudget.recordingName) -> BudgetVerdict {
        let report = budget.analyze(consume trace, options: AnalysisOptions())
        return verdict([BudgetCheck.TraceResult(name: name, source: name, report: report, budget: budget)])
    }

    /// Checks what a recorder has recorded so far against the budget.
    ///
    /// ```swift
    /// #expect(budget.check(recorder).passed)
    /// ```
    /// - Parameters:
    ///   - recorder: The recorder; its events stay in it (this reads a `snapshot()`).
    ///   - name: The name the budget's trace sections match.
    /// - Returns: The verdict.
    public func check(_ recorder: Recorder, named name: String = FrameBudget.recordingName) -> BudgetVerdict {
        check(recorder.snapshot(), named: name)
    }

    /// Checks what a test recorder has recorded so far against the budget.
    ///
    /// ```swift
    /// let verdict = budget.check(test)
    /// #expect(verdict.passed, "\(verdict)")
    /// ```
    /// - Parameters:
    ///   - test: The test recorder; its events stay in it.
    ///   - name: The name the budget's trace sections match.
    /// - Returns: The verdict.
    public func check(_ test: TestRecorder, named name: String = FrameBudget.recordingName) -> BudgetVerdict {
        check(test.recorder.snapshot(), named: name)
    }

    /// Checks a trace file (Chrome JSON or Perfetto protobuf) against the budget, as
    /// `framescope check FILE --budget ...` does.
    ///
    /// ```swift
    /// let verdict = try budget.check(traceAt: "Traces/diffable-update--snapshot-diff.json")
    /// ```
    /// - Parameter path: The trace file; its file name is what the budget's trace sections match.
    /// - Returns: The verdict.
    /// - Throws: ``FrameBudgetError``: ``FrameBudgetError/Code/unreadableFile`` when the file
    ///   cannot be read, ``FrameBudgetError/Code/invalidTrace`` with the position when it is not
    ///   a trace.
    public func check(traceAt path: String) throws(FrameBudgetError) -> BudgetVerdict {
        let trace: Trace
        do {
            // What `framescope check` reads: the arguments the analysis uses, nothing else.
            trace = try TraceReader.read(contentsOf: path, arguments: .only(FrameAnalyzer.argumentKeys))
        } catch {
            throw FrameBudgetError(reading: error, file: path)
        }
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let report = budget.analyze(consume trace, options: AnalysisOptions())
        return verdict([BudgetCheck.TraceResult(name: name, source: path, report: report, budget: budget)])
    }

    /// The check of evaluated traces, with `framescope check`'s rules for a check of nothing.
    private func verdict(_ traces: [BudgetCheck.TraceResult]) -> BudgetVerdict {
        BudgetVerdict(BudgetCheck(budgetSource: source, budget: budget, traces: traces))
    }
}
