// The signpost mirror: on Apple platforms, every span, interval, instant, counter sample and frame
// a recorder records can also be emitted through `OSSignposter`, so Instruments shows framescope's
// spans on the same timeline as its own hitch instruments.
//
// TYPE-CHECKED, NOT BUILT: framescope's CI runs on Linux, where `os` does not exist. There
// tools/check_darwin.sh type-checks everything under `#if canImport(os)` in this module against
// stub `os` and `Darwin` modules transcribed from Apple's documentation (tools/darwin-stubs), so a
// misspelt name or a wrong argument label fails CI; nothing here has been linked or run on an Apple
// platform. The messages' text is FrameTrace's `SignpostMessage`, which Linux builds and tests: the
// grammar the Instruments importer reads back is written there once.
import FrameTrace
import Synchronization

#if canImport(os)
    import os
#endif
#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

extension Recorder {
    /// The environment variable that turns the signpost mirror on for every recorder the process
    /// makes: `FRAMESCOPE_SIGNPOSTS`.
    ///
    /// `1` mirrors into the subsystem ``defaultSignpostSubsystem``; any other value except `0` and
    /// the empty string is the subsystem to use (`FRAMESCOPE_SIGNPOSTS=com.example.feed`). It is read
    /// once, when the first recorder is made. Set it in the scheme's Run or Profile action
    /// (Arguments → Environment Variables) to see framescope's spans in Instruments without a code
    /// change.
    public static let signpostEnvironmentVariable = "FRAMESCOPE_SIGNPOSTS"

    /// The signpost subsystem the mirror uses unless told otherwise: `framescope`.
    public static let defaultSignpostSubsystem = "framescope"

    /// Whether a mirror can exist on this platform: `true` where the `os` module (and so
    /// `OSSignposter`) exists, that is on Apple platforms; `false` on Linux, Android and Windows,
    /// where ``startMirroringToSignposts(subsystem:)`` does nothing.
    public static var canMirrorToSignposts: Bool {
        #if canImport(os)
            true
        #else
            false
        #endif
    }

    /// Whether the recorder also emits what it records as signposts, so that Instruments shows it.
    ///
    /// Always `false` where ``canMirrorToSignposts`` is `false`. The mirror takes effect only while
    /// ``isEnabled``: a disabled recorder neither records nor mirrors.
    public var isMirroringToSignposts: Bool {
        mode.load(ordering: .relaxed) & Recorder.signpostBit != 0
    }

    /// Starts emitting every span, interval, instant, counter sample and frame this recorder
    /// records through `OSSignposter` as well, with the span's category as the signpost category,
    /// so Instruments shows framescope's spans beside its own Hitches and Animation Hitches
    /// instruments. Does nothing where ``canMirrorToSignposts`` is `false`, and for ``disabled``.
    ///
    /// What each event becomes, in Instruments' os_signpost instrument, under `subsystem` and then
    /// the category's name (`layout`, `image-decode`, `frame`, …):
    /// - a span (``withSpan(_:category:arguments:_:)``, its async form, the `named:` form and the
    ///   `argumentsAtEnd:` form) and an ``Interval``: an interval with the span's name, begun just
    ///   before framescope's start and ended just after its end; a dynamic name becomes an interval
    ///   named `span` whose begin message is the name;
    /// - a frame (``withFrame(sinceVsync:budget:index:_:)`` and its vsync form): an interval named
    ///   `frame` in category `frame`, begun before the frame's clock is read, whose begin message is
    ///   `index N since-vsync S ns budget B ns` (FrameTrace's `SignpostMessage.Frame`): the frame's
    ///   vsync was `S` before the interval began, its deadline `B` after the vsync;
    /// - an instant: an event; a counter sample: an event whose message is the value;
    /// - a span recorded after the fact (``recordSpan(_:category:start:end:arguments:)``): an event
    ///   at the moment it is recorded, because a signpost cannot be dated in the past, whose message
    ///   `measured span: D ns ended E ns ago` (`SignpostMessage.MeasuredSpan`) dates the span.
    ///
    /// Span arguments, flows and the frame timeline tracks are not mirrored: Instruments' own
    /// Hitches instrument shows what the frame timeline shows. Mirroring costs one `OSSignposter`
    /// call at each end of a span and a short lock to find the category's signposter; it never
    /// changes what the recorder records. While it is off, the recording path reads the mirror's
    /// bit from the same word as ``isEnabled``, with the same load, so it costs nothing more.
    ///
    /// ```swift
    /// Recorder.shared.startMirroringToSignposts()   // or run with FRAMESCOPE_SIGNPOSTS=1
    /// ```
    ///
    /// Calling it again with another subsystem moves later signposts there; intervals open at that
    /// moment still end in the subsystem they began in.
    /// - Parameter subsystem: The signpost subsystem, reverse-DNS by convention; Instruments groups
    ///   signposts by it.
    public func startMirroringToSignposts(subsystem: String = Recorder.defaultSignpostSubsystem) {
        #if canImport(os)
            guard canEnable else { return }
            signpostMirror.use(subsystem: subsystem)
            mode.bitwiseOr(Recorder.signpostBit, ordering: .relaxed)
        #endif
    }

    /// Stops the signpost mirror; recording goes on as before. Intervals and spans open at that
    /// moment still end their signposts.
    public func stopMirroringToSignposts() {
        mode.bitwiseAnd(~Recorder.signpostBit, ordering: .relaxed)
    }

    /// The subsystem that ``signpostEnvironmentVariable`` asks for, read from the environment once
    /// per process; `nil` when it asks for none.
    static let signpostSubsystemFromEnvironment: String? = signpostSubsystem(
        environmentValue: getenv(signpostEnvironmentVariable).map { String(cString: $0) })

    /// The subsystem an environment value asks for: `nil` for no value, the empty string and `0`;
    /// ``defaultSignpostSubsystem`` for `1`; the value itself otherwise.
    static func signpostSubsystem(environmentValue value: String?) -> String? {
        guard let value, !value.isEmpty, value != "0" else { return nil }
        return value == "1" ? defaultSignpostSubsystem : value
    }
}

#if canImport(os)
    /// One `OSSignposter` per category, made on first use under the mirror's current subsystem.
    @usableFromInline
    final class SignpostMirror: Sendable {
        /// A signposter shared by reference. `@unchecked`: `OSSignposter` is a value wrapping an
        /// `OSLog`, which the system documents as safe to use from any thread; the box is immutable.
        final class Box: @unchecked Sendable {
            let signposter: OSSignposter
            init(_ signposter: OSSignposter) { self.signposter = signposter }
        }

        struct Table: Sendable {
            var subsystem = Recorder.defaultSignpostSubsystem
            var byCategory: [UInt16: Box] = [:]
        }

        private let table = Mutex<Table>(Table())

        init() {}

        func use(subsystem: String) {
            table.withLockAnnounced { table in
                guard table.subsystem != subsystem else { return }
                table = Table(subsystem: subsystem, byCategory: [:])
            }
        }

        /// The signposter for `category`, made on first use (the category's name is looked up then).
        func signposter(for category: Category) -> OSSignposter {
            if let box = table.withLockAnnounced({ $0.byCategory[category.id] }) { return box.signposter }
            let name = category.name  // takes the category registry's lock: not under ours
            return table.withLockAnnounced { table in
                if let box = table.byCategory[category.id] { return box }
                let box = Box(OSSignposter(subsystem: table.subsystem, category: name))
                table.byCategory[category.id] = box
                return box
            }.signposter
        }
    }

    extension Recorder {
        /// The signpost name of a span whose name is in its begin message, FrameTrace's
        /// `SignpostMessage.dynamicSpanName`, for inlinable code (which cannot see FrameTrace's
        /// internal import).
        @usableFromInline
        static var dynamicSpanSignpostName: StaticString { SignpostMessage.dynamicSpanName }

        /// The name a signpost can carry: `OSSignposter` reads a name through its pointer, which a
        /// one-scalar `StaticString` does not have.
        @inline(__always)
        static func signpostName(_ name: StaticString) -> StaticString {
            name.hasPointerRepresentation ? name : SignpostMessage.dynamicSpanName
        }

        /// Begins a signpost interval for a span and returns its signpost id, for ``endSignpost(_:category:id:)``.
        @usableFromInline
        @inline(never)
        func beginSignpost(_ name: StaticString, category: Category) -> UInt64 {
            let signposter = signpostMirror.signposter(for: category)
            let id = signposter.makeSignpostID()
            if name.hasPointerRepresentation {
                _ = signposter.beginInterval(name, id: id)
            } else {
                _ = signposter.beginInterval(
                    SignpostMessage.dynamicSpanName, id: id, "\(name.description, privacy: .public)")
            }
            return id.rawValue
        }

        /// Begins a signpost interval for a span with a name given at run time.
        @usableFromInline
        @inline(never)
        func beginSignpost(named name: String, category: Category) -> UInt64 {
            let signposter = signpostMirror.signposter(for: category)
            let id = signposter.makeSignpostID()
            _ = signposter.beginInterval(SignpostMessage.dynamicSpanName, id: id, "\(name, privacy: .public)")
            return id.rawValue
        }

        /// Begins a frame's signpost interval, whose begin message is `message`'s text
        /// (`index N since-vsync S ns budget B ns`), and returns its signpost id.
        @inline(never)
        func beginFrameSignpost(_ message: SignpostMessage.Frame) -> UInt64 {
            let signposter = signpostMirror.signposter(for: .frame)
            let id = signposter.makeSignpostID()
            _ = signposter.beginInterval(FrameContract.frameSpanName, id: id, "\(message.text, privacy: .public)")
            return id.rawValue
        }

        /// Ends the signpost interval ``beginSignpost(_:category:)`` began; `name` is the name it was
        /// begun with (`span` for a dynamic name).
        @usableFromInline
        @inline(never)
        func endSignpost(_ name: StaticString, category: Category, id: UInt64) {
            let signposter = signpostMirror.signposter(for: category)
            // The state is rebuilt from the id (Apple's `beginState(id:)`), so an `Interval` carries a
            // plain integer across threads rather than a reference to the begin call's state.
            signposter.endInterval(
                Recorder.signpostName(name), OSSignpostIntervalState.beginState(id: OSSignpostID(id)))
        }

        /// Emits an instant as a signpost event.
        @usableFromInline
        @inline(never)
        func emitSignpostEvent(_ name: StaticString, category: Category) {
            let signposter = signpostMirror.signposter(for: category)
            if name.hasPointerRepresentation {
                signposter.emitEvent(name)
            } else {
                signposter.emitEvent(SignpostMessage.dynamicInstantName, "\(name.description, privacy: .public)")
            }
        }

        /// Emits a counter sample as a signpost event whose message is the value.
        @usableFromInline
        @inline(never)
        func emitSignpostCounter(_ name: StaticString, value: Double, category: Category) {
            signpostMirror.signposter(for: category).emitEvent(Recorder.signpostName(name), "\(value)")
        }

        /// Emits a span measured by the caller as an event now, whose message
        /// (`measured span: D ns ended E ns ago`) says how long it lasted and how long ago it ended.
        @inline(never)
        func emitMeasuredSpanSignpost(_ name: StaticString, category: Category, message: SignpostMessage.MeasuredSpan) {
            signpostMirror.signposter(for: category).emitEvent(
                Recorder.signpostName(name), "\(message.text, privacy: .public)")
        }
    }
#endif
