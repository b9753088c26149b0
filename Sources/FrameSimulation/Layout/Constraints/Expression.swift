/// A variable times a coefficient: one term of a linear ``Expression``.
package struct Term: Sendable {
    /// The variable.
    package var variable: Variable
    /// Its coefficient.
    package var coefficient: Double

    /// Creates a term.
    /// - Parameters:
    ///   - variable: The variable.
    ///   - coefficient: Its coefficient.
    package init(_ variable: Variable, coefficient: Double = 1) {
        self.variable = variable
        self.coefficient = coefficient
    }
}

/// A linear expression: a sum of terms plus a constant, such as `x + 2·y − 10`.
///
/// Build expressions from variables and numbers with the `init(_:)` initializers or literals,
/// then combine them with `+`, `-` and `*` (a number times an expression). A variable may appear
/// in several terms; the solver adds them up. The operators take expressions only (a number
/// literal converts to one); bare variables and `Double` values go through `init(_:)`, so the
/// operators add no overloads to ordinary `Double` arithmetic.
///
/// ```swift
/// let left = Expression(Variable("left")), width = Expression(Variable("width"))
/// let right = left + width          // left + width
/// let center = left + 0.5 * width   // left + 0.5·width
/// ```
package struct Expression: Sendable, ExpressibleByFloatLiteral, ExpressibleByIntegerLiteral {
    /// The terms of the sum.
    package var terms: [Term]
    /// The constant added to the terms.
    package var constant: Double

    /// Creates an expression from terms and a constant.
    /// - Parameters:
    ///   - terms: The terms of the sum.
    ///   - constant: The constant added to them.
    package init(terms: [Term], constant: Double = 0) {
        self.terms = terms
        self.constant = constant
    }

    /// Creates the expression `1·variable`.
    /// - Parameter variable: The variable.
    package init(_ variable: Variable) {
        self.init(terms: [Term(variable)])
    }

    /// Creates a constant expression.
    /// - Parameter constant: The constant.
    package init(_ constant: Double) {
        self.init(terms: [], constant: constant)
    }

    /// Creates a constant expression from a number literal.
    /// - Parameter value: The constant.
    package init(floatLiteral value: Double) {
        self.init(terms: [], constant: value)
    }

    /// Creates a constant expression from an integer literal.
    /// - Parameter value: The constant.
    package init(integerLiteral value: Int) {
        self.init(terms: [], constant: Double(value))
    }

    /// The sum of two expressions.
    package static func + (lhs: Expression, rhs: Expression) -> Expression {
        Expression(terms: lhs.terms + rhs.terms, constant: lhs.constant + rhs.constant)
    }

    /// The difference of two expressions.
    package static func - (lhs: Expression, rhs: Expression) -> Expression {
        lhs + -rhs
    }

    /// An expression scaled by a number.
    package static func * (coefficient: Double, expression: Expression) -> Expression {
        Expression(
            terms: expression.terms.map { Term($0.variable, coefficient: coefficient * $0.coefficient) },
            constant: coefficient * expression.constant
        )
    }

    /// The negated expression.
    package static prefix func - (expression: Expression) -> Expression {
        -1 * expression
    }
}
