/// How the two sides of a ``Constraint`` compare.
package enum Relation: Hashable, Sendable {
    /// Left side ≤ right side.
    case lessThanOrEqual
    /// Left side = right side.
    case equal
    /// Left side ≥ right side.
    case greaterThanOrEqual
}

/// A linear relation between two expressions, with a strength.
///
/// A constraint is an immutable value with an identity, like `NSLayoutConstraint` or kiwi's
/// constraint: copies are the same constraint (and can remove it from a solver); two constraints
/// built separately are different even if they say the same thing.
///
/// ```swift
/// let nameRight = Variable("name.right"), handleLeft = Variable("handle.left")
/// let gap = Constraint(Expression(handleLeft), .equal, Expression(nameRight) + 4)
/// let limit = Constraint(Expression(handleLeft), .lessThanOrEqual, 120, strength: .weak)
/// ```
package struct Constraint: Hashable, Sendable {
    /// The left side minus the right side; the constraint compares it with zero.
    package let expression: Expression
    /// How the sides compare.
    package let relation: Relation
    /// The strength, at most ``Strength/required``.
    package let strength: Strength
    private let identity: Int

    /// Creates a constraint `lhs relation rhs`.
    /// - Parameters:
    ///   - lhs: The left side.
    ///   - relation: How the sides compare.
    ///   - rhs: The right side.
    ///   - strength: How much it matters; `.required` by default. Stronger values are lowered to `.required`.
    package init(_ lhs: Expression, _ relation: Relation, _ rhs: Expression, strength: Strength = .required) {
        expression = lhs - rhs
        self.relation = relation
        self.strength = min(strength, .required)
        identity = makeIdentity()
    }

    /// Whether two values are the same constraint.
    package static func == (lhs: Constraint, rhs: Constraint) -> Bool {
        lhs.identity == rhs.identity
    }

    /// Hashes the constraint's identity.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }
}
