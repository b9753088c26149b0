@_spi(FramescopeInternals) import FrameTrace

/// A column of the simplex tableau: an external variable, or one of the solver's own unknowns.
///
/// Identities are dense per solver, so the solver can index rows by them and visit them in a
/// fixed order; that order breaks ties between pivots deterministically (like kiwi's sorted maps).
struct TableauSymbol: Hashable {
    /// What the symbol stands for, which decides how the simplex may use it.
    enum Kind: UInt8 {
        /// A user's variable: unrestricted in sign.
        case external
        /// The slack of an inequality: at least zero.
        case slack
        /// The violation of a non-required constraint: at least zero, and costs in the objective.
        case error
        /// A marker for a required equality: always zero, never pivoted in.
        case dummy
    }

    let id: Int
    let kind: Kind

    /// Whether the simplex may pivot on it: restricted (non-negative) and not a dummy.
    var isPivotable: Bool { kind == .slack || kind == .error }
}

/// One row of the tableau: `basic = constant + Σ coefficient·symbol`, cells kept sorted by symbol id.
struct TableauRow {
    struct Cell {
        var symbol: TableauSymbol
        var coefficient: Double
    }

    var constant: Double
    private(set) var cells: [Cell] = []

    init(constant: Double = 0) {
        self.constant = constant
    }

    /// Whether every symbol in the row is a dummy.
    var isAllDummies: Bool {
        cells.allSatisfy { $0.symbol.kind == .dummy }
    }

    /// The coefficient of `symbol`, zero if it is absent.
    func coefficient(for symbol: TableauSymbol) -> Double {
        let (index, found) = position(of: symbol)
        return found ? cells[index].coefficient : 0
    }

    /// Adds `coefficient·symbol`, dropping the cell if the sum is (near) zero.
    mutating func insert(_ symbol: TableauSymbol, coefficient: Double = 1) {
        let (index, found) = position(of: symbol)
        if found {
            cells[index].coefficient += coefficient
            if isNearZero(cells[index].coefficient) { cells.remove(at: index) }
        } else if !isNearZero(coefficient) {
            cells.insert(Cell(symbol: symbol, coefficient: coefficient), at: index)
        }
    }

    /// Adds `coefficient` times another row, constant included.
    mutating func insert(_ other: TableauRow, coefficient: Double = 1) {
        constant += other.constant * coefficient
        var merged: [Cell] = []
        merged.reserveCapacity(cells.count + other.cells.count)
        var mine = 0
        var theirs = 0
        while mine < cells.count || theirs < other.cells.count {
            if theirs == other.cells.count
                || (mine < cells.count && cells[mine].symbol.id < other.cells[theirs].symbol.id)
            {
                merged.append(cells[mine])
                mine += 1
            } else if mine == cells.count || other.cells[theirs].symbol.id < cells[mine].symbol.id {
                let scaled = other.cells[theirs].coefficient * coefficient
                if !isNearZero(scaled) { merged.append(Cell(symbol: other.cells[theirs].symbol, coefficient: scaled)) }
                theirs += 1
            } else {
                let sum = cells[mine].coefficient + other.cells[theirs].coefficient * coefficient
                if !isNearZero(sum) { merged.append(Cell(symbol: cells[mine].symbol, coefficient: sum)) }
                mine += 1
                theirs += 1
            }
        }
        cells = merged
    }

    /// Removes `symbol`'s cell, if any.
    mutating func remove(_ symbol: TableauSymbol) {
        let (index, found) = position(of: symbol)
        if found { cells.remove(at: index) }
    }

    /// Negates the constant and every coefficient.
    mutating func reverseSign() {
        constant = -constant
        for index in cells.indices { cells[index].coefficient = -cells[index].coefficient }
    }

    /// Solves `0 = row` for `symbol`, which must be present: afterwards the row reads `symbol = …`.
    mutating func solve(for symbol: TableauSymbol) {
        let (index, found) = position(of: symbol)
        precondition(found, "solving a row for a symbol it does not contain")
        let scale = -1 / cells[index].coefficient
        cells.remove(at: index)
        constant *= scale
        for cell in cells.indices { cells[cell].coefficient *= scale }
    }

    /// Pivots a row `basic = … + c·entering + …` into `entering = …`, with `basic` moved to the right side.
    mutating func solve(for entering: TableauSymbol, replacing basic: TableauSymbol) {
        insert(basic, coefficient: -1)
        solve(for: entering)
    }

    /// Replaces `symbol` by the right side of `row` (which defines it), if the symbol occurs here.
    mutating func substitute(_ symbol: TableauSymbol, with row: TableauRow) {
        let (index, found) = position(of: symbol)
        guard found else { return }
        let coefficient = cells[index].coefficient
        cells.remove(at: index)
        insert(row, coefficient: coefficient)
    }

    /// Binary search by symbol id: where the symbol is, or where it would be inserted.
    private func position(of symbol: TableauSymbol) -> (index: Int, found: Bool) {
        let low = cells.partitioningIndex { $0.symbol.id >= symbol.id }
        return (low, low < cells.count && cells[low].symbol.id == symbol.id)
    }
}

/// Kiwi's tolerance for treating a coefficient or constant as zero.
func isNearZero(_ value: Double) -> Bool {
    abs(value) < 1.0e-8
}
