import Synchronization

/// Hands out identities for variables and constraints, unique across all threads of the process.
private let identities = Atomic<Int>(0)

/// A new identity for a ``Variable`` or a ``Constraint``.
func makeIdentity() -> Int {
    identities.wrappingAdd(1, ordering: .relaxed).newValue
}

/// An unknown that a ``ConstraintSolver`` finds a value for.
///
/// A variable is an immutable value with an identity: copies are the same variable, two
/// variables created separately are different even with the same name. It holds no value
/// itself (so it can be `Sendable` and shared by any number of solvers); ask the solver with
/// ``ConstraintSolver/value(of:)``.
///
/// ```swift
/// let left = Variable("left")
/// try solver.add(Constraint(Expression(left), .equal, 12))
/// solver.value(of: left) // 12
/// ```
package struct Variable: Hashable, Sendable, CustomStringConvertible {
    /// A name for diagnostics; it plays no part in identity.
    package let name: String
    private let identity: Int

    /// Creates a new, distinct variable.
    /// - Parameter name: A name for diagnostics.
    package init(_ name: String) {
        self.name = name
        identity = makeIdentity()
    }

    /// Whether two values are the same variable.
    package static func == (lhs: Variable, rhs: Variable) -> Bool {
        lhs.identity == rhs.identity
    }

    /// Hashes the variable's identity.
    package func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }

    /// The variable's name.
    package var description: String { name }
}
