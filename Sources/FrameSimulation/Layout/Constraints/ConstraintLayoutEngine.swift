/// Lays out the feed cell the Auto Layout way: constraints solved by ``ConstraintSolver``.
///
/// Each call does what a self-sizing cell's layout pass does in UIKit: it installs the cell's
/// constraints in a fresh engine and solves them, with the width required and the height
/// pulled down at fitting-size priority, as `systemLayoutSizeFitting` does. Every view has four
/// variables (left, top, width, height). Labels and buttons get content-size constraints from
/// their intrinsic size (at least it at compression-resistance strength, at most it at hugging
/// strength); fixed-size views get required size constraints; the image grid is equal widths,
/// equal heights and fixed gaps; the action buttons have equal gaps between them.
///
/// The multi-line body is sized in two passes, like a `UILabel` without a preferred maximum
/// width: the first solve decides its width, the label is measured at that width, and its
/// content-size constraints are added to the live solver, which re-solves incrementally.
/// Before measuring, the width is rounded to 1/1000 pt (UIKit rounds engine results before
/// applying them), so floating-point residue cannot move a line break.
///
/// Priorities map onto strengths as follows: required is required; compression resistance
/// (UIKit's 750) and the single image's aspect ratio are strong; the handle's lower compression
/// resistance, which makes it give way before the name, is medium; hugging (250) and the
/// fitting-size pull (50) are weak levels of those values.
package struct ConstraintLayoutEngine: FeedCellLayoutEngine {
    /// The design the layout follows.
    package var metrics: FeedCellMetrics

    /// Creates the engine.
    /// - Parameter metrics: The design; the standard one by default.
    package init(metrics: FeedCellMetrics = .standard) {
        self.metrics = metrics
    }

    /// `"constraint"`.
    package var name: String { "constraint" }

    /// Lays out one cell by building its constraints into a new solver and solving them.
    /// - Parameters:
    ///   - content: What the cell shows.
    ///   - width: The cell's width in points.
    /// - Returns: The frames and the cell's height.
    /// - Throws: ``ConstraintSolverError/unsatisfiableConstraint(_:)`` if required constraints
    ///   contradict each other, which the standard design never does.
    /// - Complexity: About a hundred constraints over some sixty variables, each added with a
    ///   substitution over the tableau; far more work than ``ManualLayoutEngine``.
    package func layout(_ content: FeedCellContent, width: Double) throws(ConstraintSolverError) -> FeedCellLayout {
        let result = WorkMeter.measure(.constraintLayout) {
            var system = FeedCellConstraints(content: content, metrics: metrics)
            let result = Result { () throws(ConstraintSolverError) -> FeedCellLayout in
                try system.constrainCell(width: width)
                try system.constrainHeader()
                try system.constrainBody()
                let mediaBottom = try system.constrainMedia()
                try system.constrainActions(below: mediaBottom)
                try system.constrainSeparator()
                try system.sizeBodyToItsWidth()
                return system.layout(width: width)
            }
            return (result, units: system.solver.operations)
        }
        return try result.get()
    }
}

/// Auto Layout priorities as Cassowary strengths; see ``ConstraintLayoutEngine``.
private enum Priority {
    static let compressionResistance = Strength.strong
    static let lowCompressionResistance = Strength.medium
    static let aspectRatio = Strength.strong
    static let hugging = Strength(weak: 250)
    static let fittingSize = Strength(weak: 50)
}

/// One view as the engine sees it: four variables and the anchors built from them.
private struct ConstrainedView {
    let left: Variable
    let top: Variable
    let width: Variable
    let height: Variable

    init(_ element: FeedCellElement) {
        let names = variableNames[element.rawValue]
        left = Variable(names.left)
        top = Variable(names.top)
        width = Variable(names.width)
        height = Variable(names.height)
    }

    var leftAnchor: Expression { Expression(left) }
    var rightAnchor: Expression { Expression(left) + Expression(width) }
    var topAnchor: Expression { Expression(top) }
    var bottomAnchor: Expression { Expression(top) + Expression(height) }
    var centerYAnchor: Expression { Expression(top) + 0.5 * Expression(height) }
    var widthAnchor: Expression { Expression(width) }
    var heightAnchor: Expression { Expression(height) }

    func frame(in solver: ConstraintSolver) -> LayoutRect {
        LayoutRect(
            x: solver.value(of: left), y: solver.value(of: top),
            width: solver.value(of: width), height: solver.value(of: height)
        )
    }
}

/// Variable names per element, built once so that a layout pass does not format strings.
private let variableNames: [(left: String, top: String, width: String, height: String)] =
    FeedCellElement.allCases.map { ("\($0).left", "\($0).top", "\($0).width", "\($0).height") }

/// The feed cell's constraints, added section by section to one solver.
private struct FeedCellConstraints {
    let content: FeedCellContent
    let metrics: FeedCellMetrics
    var solver = ConstraintSolver()
    let cellWidth = Variable("cell.width")
    let cellHeight = Variable("cell.height")
    let views = FeedCellElement.allCases.map(ConstrainedView.init)

    init(content: FeedCellContent, metrics: FeedCellMetrics) {
        self.content = content
        self.metrics = metrics
    }

    func view(_ element: FeedCellElement) -> ConstrainedView {
        views[element.rawValue]
    }

    /// The cell's width is required; its height is as small as the content allows.
    mutating func constrainCell(width: Double) throws(ConstraintSolverError) {
        let avatar = view(.avatar)
        try constrain(Expression(cellWidth), .equal, Expression(width))
        try constrain(Expression(cellHeight), .equal, 0, Priority.fittingSize)
        try constrain(avatar.leftAnchor, .equal, Expression(metrics.padding))
        try constrain(avatar.topAnchor, .equal, Expression(metrics.padding))
        try constrain(avatar.widthAnchor, .equal, Expression(metrics.avatarSize))
        try constrain(avatar.heightAnchor, .equal, Expression(metrics.avatarSize))
        try constrain(Expression(cellHeight), .greaterThanOrEqual, avatar.bottomAnchor + Expression(metrics.padding))
    }

    /// Name, handle, timestamp and menu on one line; the handle gives way first, the name is capped.
    mutating func constrainHeader() throws(ConstraintSolverError) {
        let (avatar, name, handle, timestamp, menu) = (
            view(.avatar), view(.name), view(.handle), view(.timestamp), view(.menu)
        )
        try constrain(name.leftAnchor, .equal, avatar.rightAnchor + Expression(metrics.avatarSpacing))
        try constrain(name.topAnchor, .equal, Expression(metrics.padding))
        try constrainIntrinsicSize(of: name, metrics.label(.name, of: content).intrinsicSize)
        try constrain(name.widthAnchor, .lessThanOrEqual, metrics.maximumNameWidthFraction * view(.body).widthAnchor)

        try constrain(handle.leftAnchor, .equal, name.rightAnchor + Expression(metrics.nameHandleSpacing))
        try constrain(handle.topAnchor, .equal, name.topAnchor)
        try constrainIntrinsicSize(
            of: handle, metrics.label(.handle, of: content).intrinsicSize,
            horizontalCompressionResistance: Priority.lowCompressionResistance
        )

        try constrain(menu.rightAnchor, .equal, Expression(cellWidth) - Expression(metrics.padding))
        try constrain(menu.widthAnchor, .equal, Expression(metrics.menuSize))
        try constrain(menu.heightAnchor, .equal, Expression(metrics.menuSize))
        try constrain(menu.centerYAnchor, .equal, name.centerYAnchor)

        try constrain(timestamp.rightAnchor, .equal, menu.leftAnchor - Expression(metrics.timestampMenuSpacing))
        try constrain(timestamp.topAnchor, .equal, name.topAnchor)
        try constrainIntrinsicSize(of: timestamp, metrics.label(.timestamp, of: content).intrinsicSize)
        try constrain(
            timestamp.leftAnchor, .greaterThanOrEqual,
            handle.rightAnchor + Expression(metrics.minimumHandleTimestampSpacing)
        )
    }

    /// The body spans the text column under the header; its height comes in the second pass.
    mutating func constrainBody() throws(ConstraintSolverError) {
        let (name, body) = (view(.name), view(.body))
        try constrain(body.leftAnchor, .equal, name.leftAnchor)
        try constrain(body.rightAnchor, .equal, Expression(cellWidth) - Expression(metrics.padding))
        try constrain(body.topAnchor, .equal, name.bottomAnchor + Expression(metrics.headerBodySpacing))
    }

    /// One image at its aspect ratio (capped), or a grid; returns the anchor the buttons go below.
    mutating func constrainMedia() throws(ConstraintSolverError) -> Expression {
        let body = view(.body)
        let count = content.imageAspectRatios.count
        let top = body.bottomAnchor + Expression(metrics.sectionSpacing)
        switch count {
        case 0:
            return body.bottomAnchor
        case 1:
            let image = view(.image0)
            let ratio = 1 / content.imageAspectRatios[0]
            try constrain(image.leftAnchor, .equal, body.leftAnchor)
            try constrain(image.rightAnchor, .equal, body.rightAnchor)
            try constrain(image.topAnchor, .equal, top)
            try constrain(image.heightAnchor, .equal, ratio * image.widthAnchor, Priority.aspectRatio)
            try constrain(
                image.heightAnchor, .lessThanOrEqual, metrics.maximumSingleImageHeightRatio * image.widthAnchor)
            return image.bottomAnchor
        default:
            let columns = FeedCellMetrics.imageGridColumns[count]
            let spacing = Expression(metrics.imageSpacing)
            let gridBottom = top + metrics.imageGridHeightRatio * body.widthAnchor
            let reference = columns[0][0]
            var previousColumn: ConstrainedView?
            for (columnIndex, column) in columns.enumerated() {
                let first = view(.image(column[0]))
                for (row, index) in column.enumerated() {
                    let image = view(.image(index))
                    try constrain(
                        image.leftAnchor, .equal, previousColumn.map { $0.rightAnchor + spacing } ?? body.leftAnchor)
                    if columnIndex == columns.count - 1 {
                        try constrain(image.rightAnchor, .equal, body.rightAnchor)
                    }
                    if index != reference {
                        try constrain(image.widthAnchor, .equal, view(.image(reference)).widthAnchor)
                    }
                    if row == 0 {
                        try constrain(image.topAnchor, .equal, top)
                    } else {
                        try constrain(image.topAnchor, .equal, view(.image(column[row - 1])).bottomAnchor + spacing)
                        try constrain(image.heightAnchor, .equal, first.heightAnchor)
                    }
                    if row == column.count - 1 {
                        try constrain(image.bottomAnchor, .equal, gridBottom)
                    }
                }
                previousColumn = first
            }
            return view(.image(columns[0].last!)).bottomAnchor
        }
    }

    /// The buttons in a row under the media, first and last at the column's edges, equal gaps between.
    mutating func constrainActions(below mediaBottom: Expression) throws(ConstraintSolverError) {
        let body = view(.body)
        let buttons = FeedAction.allCases.map { view($0.element) }
        for (action, button) in zip(FeedAction.allCases, buttons) {
            try constrain(button.topAnchor, .equal, mediaBottom + Expression(metrics.sectionSpacing))
            try constrainIntrinsicSize(of: button, metrics.actionButtonSize(count: content.count(for: action)))
        }
        try constrain(buttons[0].leftAnchor, .equal, body.leftAnchor)
        try constrain(buttons[buttons.count - 1].rightAnchor, .equal, body.rightAnchor)
        for index in 1..<(buttons.count - 1) {
            try constrain(
                buttons[index].leftAnchor - buttons[index - 1].rightAnchor, .equal,
                buttons[index + 1].leftAnchor - buttons[index].rightAnchor
            )
        }
        try constrain(
            Expression(cellHeight), .greaterThanOrEqual, buttons[0].bottomAnchor + Expression(metrics.padding))
    }

    /// A hairline along the cell's bottom edge, from the text column to the right edge.
    mutating func constrainSeparator() throws(ConstraintSolverError) {
        let separator = view(.separator)
        try constrain(separator.leftAnchor, .equal, view(.body).leftAnchor)
        try constrain(separator.rightAnchor, .equal, Expression(cellWidth))
        try constrain(separator.heightAnchor, .equal, Expression(metrics.separatorThickness))
        try constrain(separator.bottomAnchor, .equal, Expression(cellHeight))
    }

    /// The second pass: measures the body at the width the first solve gave it.
    mutating func sizeBodyToItsWidth() throws(ConstraintSolverError) {
        let body = view(.body)
        let width = (solver.value(of: body.width) * 1000).rounded() / 1000
        try constrainIntrinsicSize(of: body, metrics.label(.body, of: content).size(fittingWidth: width))
    }

    func layout(width: Double) -> FeedCellLayout {
        var layout = FeedCellLayout(size: LayoutSize(width: width, height: solver.value(of: cellHeight)))
        for element in [FeedCellElement.avatar, .name, .handle, .timestamp, .menu, .body, .separator] {
            layout[element] = view(element).frame(in: solver)
        }
        for index in content.imageAspectRatios.indices {
            layout[.image(index)] = view(.image(index)).frame(in: solver)
        }
        for action in FeedAction.allCases {
            layout[action.element] = view(action.element).frame(in: solver)
        }
        return layout
    }

    /// UIKit's content-size constraints for a view with an intrinsic size.
    private mutating func constrainIntrinsicSize(
        of view: ConstrainedView, _ size: LayoutSize,
        horizontalCompressionResistance: Strength = Priority.compressionResistance
    ) throws(ConstraintSolverError) {
        let width = Expression(size.width)
        let height = Expression(size.height)
        try constrain(view.widthAnchor, .greaterThanOrEqual, width, horizontalCompressionResistance)
        try constrain(view.widthAnchor, .lessThanOrEqual, width, Priority.hugging)
        try constrain(view.heightAnchor, .greaterThanOrEqual, height, Priority.compressionResistance)
        try constrain(view.heightAnchor, .lessThanOrEqual, height, Priority.hugging)
    }

    private mutating func constrain(
        _ lhs: Expression, _ relation: Relation, _ rhs: Expression, _ strength: Strength = .required
    ) throws(ConstraintSolverError) {
        try solver.add(Constraint(lhs, relation, rhs, strength: strength))
    }
}
