/// Whether `scalar` is hidden: shown as a visible escape (`\u{200B}`) in every output a person or
/// a terminal reads (`UntrustedText` in the engine target FrameSupport), and as a `\u` escape in
/// JSON (``JSONOutput``). Derived from Unicode's own data (the toolchain's
/// `Unicode.Scalar.Properties`), not a list: general categories Cc (controls; tab only when
/// `keepingTab` is false), Cf (format: zero-width and bidi controls, soft hyphen, tag
/// characters), Co (private use), Cn (unassigned), Zl and Zp (line and paragraph separators),
/// every Default_Ignorable_Code_Point (variation selectors, fillers, the combining grapheme
/// joiner) and every noncharacter.
///
/// The one definition: FrameTrace's JSON writer needs it, and the escapers for the other outputs,
/// which apps never link, call it from FrameSupport. Inlinable, so a call from there costs what a
/// call inside one module does.
/// - Parameters:
///   - scalar: The scalar to classify.
///   - keepingTab: Whether a tab counts as visible; pass `false` where a tab would break
///     the output, as in Markdown and CSV.
/// - Returns: `true` when the scalar must be shown as an escape.
@inlinable
package func isHidden(_ scalar: Unicode.Scalar, keepingTab: Bool = true) -> Bool {
    let value = scalar.value
    if value < 0x7F { return value < 0x20 && (value != 0x09 || !keepingTab) }
    if value < 0xA0 { return true }  // DEL and C1
    let properties = scalar.properties
    switch properties.generalCategory {
    case .control, .format, .privateUse, .unassigned, .surrogate, .lineSeparator, .paragraphSeparator: return true
    default:
        return properties.isDefaultIgnorableCodePoint || properties.isNoncharacterCodePoint
            || properties.isBidiControl
    }
}
