/// An incremental linear constraint solver: the Cassowary simplex, as in Auto Layout's engine.
///
/// This follows Badros, Borning and Stuckey's Cassowary algorithm as the kiwi solver implements
/// it. Each constraint becomes a row of a simplex tableau, with a slack symbol for an inequality,
/// error symbols (weighted by strength in the objective) for a non-required constraint, and a
/// dummy symbol for a required equality. Adding a constraint solves its row for a subject and
/// substitutes it into the other rows; when no subject exists, an artificial variable finds a
/// feasible basis or proves the constraint unsatisfiable. The primal simplex then minimises the
/// weighted errors. Edit variables take repeated suggested values; a suggestion only shifts row
/// constants, and the dual simplex restores feasibility from the previous optimum, which is
/// what makes dragging and resizing cheap.
///
/// The solver is a value: copying it copies the system (storage is shared until one copy
/// changes), and it is `Sendable`. It stores no values in variables; read them with
/// ``value(of:)``, which takes the place of kiwi's `updateVariables`.
///
/// ```swift
/// let left = Variable("left"), width = Variable("width")
/// var solver = ConstraintSolver()
/// try solver.add(Constraint(Expression(left), .equal, 12))
/// try solver.add(Constraint(Expression(width), .greaterThanOrEqual, 100))
/// try solver.add(Constraint(Expression(width), .equal, 0, strength: .weak))
/// try solver.addEditVariable(left, strength: .strong)   // competes with the required left == 12
/// try solver.suggestValue(40, for: left)
/// solver.value(of: left)  // 12: the required constraint wins
/// solver.value(of: width) // 100
/// ```
package struct ConstraintSolver: Sendable {
    /// The symbols a constraint added, so that it can be removed again.
    private struct Tag {
        var marker: TableauSymbol
        var other: TableauSymbol? = nil
    }

    private struct EditInfo {
        var tag: Tag
        var constraint: Constraint
        var constant: Double
    }

    private enum Objective {
        case main
        case artificial
    }

    private var constraints: [Constraint: Tag] = [:]
    private var variableSymbols: [Variable: TableauSymbol] = [:]
    private var edits: [Variable: EditInfo] = [:]
    /// The kind of every symbol, indexed by symbol id.
    private var symbolKinds: [TableauSymbol.Kind] = []
    /// The tableau, indexed by the basic symbol's id; `nil` for symbols that are not basic.
    private var rows: [TableauRow?] = []
    private var infeasibleRows: [TableauSymbol] = []
    private var objective = TableauRow()
    private var artificial: TableauRow?
    /// Work done so far, for ``WorkMeter``: constraints added or removed plus rows rewritten by
    /// substitutions (the tableau operations that make the solver's cost).
    package private(set) var operations = 0

    /// Creates an empty solver.
    package init() {}

    /// Adds a constraint and re-solves.
    /// - Parameter constraint: The constraint.
    /// - Throws: ``ConstraintSolverError/duplicateConstraint(_:)`` if it was added before;
    ///   ``ConstraintSolverError/unsatisfiableConstraint(_:)`` if it is required and contradicts
    ///   the required constraints already present (it is then not added).
    /// - Complexity: One substitution over all rows plus the simplex pivots the change needs.
    package mutating func add(_ constraint: Constraint) throws(ConstraintSolverError) {
        operations += 1
        guard constraints[constraint] == nil else { throw .duplicateConstraint(constraint) }
        guard insert(constraint) else { throw .unsatisfiableConstraint(constraint) }
    }

    /// Removes a constraint and re-solves.
    /// - Parameter constraint: A constraint added before.
    /// - Throws: ``ConstraintSolverError/unknownConstraint(_:)`` if the solver does not have it.
    package mutating func remove(_ constraint: Constraint) throws(ConstraintSolverError) {
        operations += 1
        guard let tag = constraints.removeValue(forKey: constraint) else { throw .unknownConstraint(constraint) }
        removeRow(tag: tag, strength: constraint.strength)
    }

    /// Whether the solver has a constraint.
    /// - Parameter constraint: The constraint.
    /// - Returns: `true` if it was added and not removed.
    package func contains(_ constraint: Constraint) -> Bool {
        constraints[constraint] != nil
    }

    /// Makes a variable editable: it takes values from ``suggestValue(_:for:)`` at `strength`.
    ///
    /// The variable starts with a suggested value of zero.
    /// - Parameters:
    ///   - variable: The variable.
    ///   - strength: How hard suggestions pull; must be weaker than ``Strength/required``.
    /// - Throws: ``ConstraintSolverError/duplicateEditVariable(_:)`` if it already is one;
    ///   ``ConstraintSolverError/requiredEditStrength(_:)`` for a required strength.
    package mutating func addEditVariable(_ variable: Variable, strength: Strength) throws(ConstraintSolverError) {
        guard edits[variable] == nil else { throw .duplicateEditVariable(variable) }
        guard !strength.isRequired else { throw .requiredEditStrength(variable) }
        let constraint = Constraint(Expression(variable), .equal, 0, strength: strength)
        let added = insert(constraint)
        assert(added, "a non-required constraint is always satisfiable")
        edits[variable] = EditInfo(tag: constraints[constraint]!, constraint: constraint, constant: 0)
    }

    /// Stops a variable being editable and re-solves without its suggestion.
    /// - Parameter variable: An edit variable.
    /// - Throws: ``ConstraintSolverError/unknownEditVariable(_:)`` if it is not one.
    package mutating func removeEditVariable(_ variable: Variable) throws(ConstraintSolverError) {
        guard let edit = edits.removeValue(forKey: variable) else { throw .unknownEditVariable(variable) }
        constraints[edit.constraint] = nil
        removeRow(tag: edit.tag, strength: edit.constraint.strength)
    }

    /// Suggests a value for an edit variable and re-solves incrementally with the dual simplex.
    /// - Parameters:
    ///   - value: The value wanted.
    ///   - variable: An edit variable.
    /// - Throws: ``ConstraintSolverError/unknownEditVariable(_:)`` if it is not one.
    /// - Complexity: One pass over the rows to shift constants, plus the dual pivots needed.
    package mutating func suggestValue(_ value: Double, for variable: Variable) throws(ConstraintSolverError) {
        guard var edit = edits[variable] else { throw .unknownEditVariable(variable) }
        let delta = value - edit.constant
        edit.constant = value
        edits[variable] = edit

        // The edit constraint reads `variable − value = errorPlus − errorMinus`.
        let plus = edit.tag.marker
        let minus = edit.tag.other!
        if rows[plus.id] != nil {
            rows[plus.id]!.constant -= delta
            if rows[plus.id]!.constant < 0 { infeasibleRows.append(plus) }
        } else if rows[minus.id] != nil {
            rows[minus.id]!.constant += delta
            if rows[minus.id]!.constant < 0 { infeasibleRows.append(minus) }
        } else {
            for id in rows.indices where rows[id] != nil {
                let coefficient = rows[id]!.coefficient(for: plus)
                guard coefficient != 0 else { continue }
                rows[id]!.constant += delta * coefficient
                if rows[id]!.constant < 0 && symbolKinds[id] != .external { infeasibleRows.append(symbol(id)) }
            }
        }
        dualOptimize()
    }

    /// The value the current solution gives a variable.
    ///
    /// A variable the solver has never seen, or one left free by every constraint, is zero.
    /// - Parameter variable: The variable.
    /// - Returns: Its value.
    package func value(of variable: Variable) -> Double {
        guard let symbol = variableSymbols[variable] else { return 0 }
        return rows[symbol.id]?.constant ?? 0
    }

    // MARK: Adding and removing rows

    /// Adds a constraint not yet present; returns `false`, changing nothing visible, if it is unsatisfiable.
    private mutating func insert(_ constraint: Constraint) -> Bool {
        var (row, tag) = makeRow(for: constraint)
        var subject = chooseSubject(row, tag: tag)
        if subject == nil && row.isAllDummies {
            // A required equality among constants: true (redundant) or impossible.
            guard isNearZero(row.constant) else { return false }
            subject = tag.marker
        }
        if let subject {
            row.solve(for: subject)
            substitute(subject, with: row)
            rows[subject.id] = row
        } else if !addWithArtificialVariable(row) {
            // The artificial phase may have pivoted: bring the old system back to its optimum.
            optimize(.main)
            return false
        }
        constraints[constraint] = tag
        optimize(.main)
        return true
    }

    /// Builds the tableau row for a constraint, with its slack, error or dummy symbols.
    private mutating func makeRow(for constraint: Constraint) -> (TableauRow, Tag) {
        var row = TableauRow(constant: constraint.expression.constant)
        for term in constraint.expression.terms where !isNearZero(term.coefficient) {
            let symbol = symbol(for: term.variable)
            if let basic = rows[symbol.id] {
                row.insert(basic, coefficient: term.coefficient)
            } else {
                row.insert(symbol, coefficient: term.coefficient)
            }
        }
        let strength = constraint.strength.value
        let tag: Tag
        switch constraint.relation {
        case .lessThanOrEqual, .greaterThanOrEqual:
            let sign = constraint.relation == .lessThanOrEqual ? 1.0 : -1.0
            let slack = makeSymbol(.slack)
            row.insert(slack, coefficient: sign)
            if constraint.strength.isRequired {
                tag = Tag(marker: slack)
            } else {
                let error = makeSymbol(.error)
                row.insert(error, coefficient: -sign)
                objective.insert(error, coefficient: strength)
                tag = Tag(marker: slack, other: error)
            }
        case .equal:
            if constraint.strength.isRequired {
                let dummy = makeSymbol(.dummy)
                row.insert(dummy)
                tag = Tag(marker: dummy)
            } else {
                let plus = makeSymbol(.error)
                let minus = makeSymbol(.error)
                row.insert(plus, coefficient: -1)
                row.insert(minus, coefficient: 1)
                objective.insert(plus, coefficient: strength)
                objective.insert(minus, coefficient: strength)
                tag = Tag(marker: plus, other: minus)
            }
        }
        if row.constant < 0 { row.reverseSign() }
        return (row, tag)
    }

    /// The symbol to solve a new row for: any external variable, else a restricted marker with a
    /// negative coefficient (so that it comes out non-negative).
    private func chooseSubject(_ row: TableauRow, tag: Tag) -> TableauSymbol? {
        if let external = row.cells.first(where: { $0.symbol.kind == .external }) { return external.symbol }
        if tag.marker.isPivotable && row.coefficient(for: tag.marker) < 0 { return tag.marker }
        if let other = tag.other, other.isPivotable, row.coefficient(for: other) < 0 { return other }
        return nil
    }

    /// Phase one of the simplex: makes the row basic through an artificial variable and minimises
    /// that variable; the row is satisfiable if it reaches zero.
    private mutating func addWithArtificialVariable(_ row: TableauRow) -> Bool {
        let art = makeSymbol(.slack)
        rows[art.id] = row
        artificial = row
        optimize(.artificial)
        let isSatisfiable = isNearZero(artificial!.constant)
        artificial = nil

        if var basic = rows[art.id] {
            rows[art.id] = nil
            if basic.cells.isEmpty { return isSatisfiable }
            guard let entering = basic.cells.first(where: { $0.symbol.isPivotable })?.symbol else { return false }
            basic.solve(for: entering, replacing: art)
            substitute(entering, with: basic)
            rows[entering.id] = basic
        }
        for id in rows.indices { rows[id]?.remove(art) }
        objective.remove(art)
        return isSatisfiable
    }

    /// Takes a constraint's rows and objective terms out of the tableau and re-optimises.
    private mutating func removeRow(tag: Tag, strength: Strength) {
        for marker in [tag.marker, tag.other] {
            guard let marker, marker.kind == .error else { continue }
            if let row = rows[marker.id] {
                objective.insert(row, coefficient: -strength.value)
            } else {
                objective.insert(marker, coefficient: -strength.value)
            }
        }
        if rows[tag.marker.id] != nil {
            rows[tag.marker.id] = nil
        } else if let leaving = markerLeavingSymbol(tag.marker) {
            var row = rows[leaving.id]!
            rows[leaving.id] = nil
            row.solve(for: tag.marker, replacing: leaving)
            substitute(tag.marker, with: row)
        }
        // A marker in no row at all constrains nothing: there is nothing to pivot out.
        optimize(.main)
    }

    /// The row to pivot a marker into before dropping it: prefer restricted rows that stay
    /// feasible (smallest ratio), then other restricted rows, then an external row.
    private func markerLeavingSymbol(_ marker: TableauSymbol) -> TableauSymbol? {
        var negativeRatio = Double.greatestFiniteMagnitude
        var positiveRatio = Double.greatestFiniteMagnitude
        var first: TableauSymbol?
        var second: TableauSymbol?
        var third: TableauSymbol?
        for id in rows.indices {
            guard let row = rows[id] else { continue }
            let coefficient = row.coefficient(for: marker)
            if coefficient == 0 { continue }
            if symbolKinds[id] == .external {
                third = symbol(id)
            } else if coefficient < 0 {
                let ratio = -row.constant / coefficient
                if ratio < negativeRatio {
                    negativeRatio = ratio
                    first = symbol(id)
                }
            } else {
                let ratio = row.constant / coefficient
                if ratio < positiveRatio {
                    positiveRatio = ratio
                    second = symbol(id)
                }
            }
        }
        return first ?? second ?? third
    }

    // MARK: Simplex

    /// The primal simplex: pivots until no objective coefficient is negative.
    private mutating func optimize(_ which: Objective) {
        while let entering = enteringSymbol(which) {
            guard let leaving = leavingSymbol(for: entering) else {
                preconditionFailure("Cassowary invariant broken: the objective is unbounded")
            }
            pivot(leaving: leaving, entering: entering)
        }
    }

    /// Bland's rule over the sorted cells: the first non-dummy symbol with a negative coefficient.
    private func enteringSymbol(_ which: Objective) -> TableauSymbol? {
        let cells = which == .main ? objective.cells : artificial!.cells
        return cells.first { $0.symbol.kind != .dummy && $0.coefficient < 0 }?.symbol
    }

    /// The minimum-ratio test: the restricted row that limits how far `entering` can grow.
    private func leavingSymbol(for entering: TableauSymbol) -> TableauSymbol? {
        var smallest = Double.greatestFiniteMagnitude
        var leaving: TableauSymbol?
        for id in rows.indices where symbolKinds[id] != .external {
            guard let coefficient = rows[id]?.coefficient(for: entering), coefficient < 0 else { continue }
            let ratio = -rows[id]!.constant / coefficient
            if ratio < smallest {
                smallest = ratio
                leaving = symbol(id)
            }
        }
        return leaving
    }

    /// The dual simplex: pivots infeasible rows (negative constants) back to feasibility while
    /// keeping the objective optimal.
    private mutating func dualOptimize() {
        while let leaving = infeasibleRows.popLast() {
            guard let row = rows[leaving.id], !isNearZero(row.constant), row.constant < 0 else { continue }
            guard let entering = dualEnteringSymbol(row) else {
                preconditionFailure("Cassowary invariant broken: the dual simplex found no entering symbol")
            }
            pivot(leaving: leaving, entering: entering)
        }
    }

    /// The dual ratio test: the symbol whose objective coefficient, over its positive row
    /// coefficient, is smallest.
    private func dualEnteringSymbol(_ row: TableauRow) -> TableauSymbol? {
        var smallest = Double.greatestFiniteMagnitude
        var entering: TableauSymbol?
        for cell in row.cells where cell.coefficient > 0 && cell.symbol.kind != .dummy {
            let ratio = objective.coefficient(for: cell.symbol) / cell.coefficient
            if ratio < smallest {
                smallest = ratio
                entering = cell.symbol
            }
        }
        return entering
    }

    /// Exchanges a basic symbol for a non-basic one and substitutes the new row everywhere.
    private mutating func pivot(leaving: TableauSymbol, entering: TableauSymbol) {
        var row = rows[leaving.id]!
        rows[leaving.id] = nil
        row.solve(for: entering, replacing: leaving)
        substitute(entering, with: row)
        rows[entering.id] = row
    }

    /// Replaces `symbol` by `row` in every row and both objectives, noting rows made infeasible.
    private mutating func substitute(_ symbol: TableauSymbol, with row: TableauRow) {
        for id in rows.indices where rows[id] != nil {
            operations += 1
            rows[id]!.substitute(symbol, with: row)
            if symbolKinds[id] != .external && rows[id]!.constant < 0 {
                infeasibleRows.append(self.symbol(id))
            }
        }
        objective.substitute(symbol, with: row)
        artificial?.substitute(symbol, with: row)
    }

    // MARK: Symbols

    private mutating func makeSymbol(_ kind: TableauSymbol.Kind) -> TableauSymbol {
        let symbol = TableauSymbol(id: symbolKinds.count, kind: kind)
        symbolKinds.append(kind)
        rows.append(nil)
        return symbol
    }

    private mutating func symbol(for variable: Variable) -> TableauSymbol {
        if let symbol = variableSymbols[variable] { return symbol }
        let symbol = makeSymbol(.external)
        variableSymbols[variable] = symbol
        return symbol
    }

    private func symbol(_ id: Int) -> TableauSymbol {
        TableauSymbol(id: id, kind: symbolKinds[id])
    }
}
