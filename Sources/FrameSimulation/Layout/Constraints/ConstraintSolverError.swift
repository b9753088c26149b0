/// Why a ``ConstraintSolver`` refused an operation. After each, the solver keeps the constraints
/// and the solution it had.
package enum ConstraintSolverError: Error, Hashable, Sendable {
    /// A required constraint contradicts the required constraints already added. It was not added.
    case unsatisfiableConstraint(Constraint)
    /// The constraint is already in the solver.
    case duplicateConstraint(Constraint)
    /// The constraint is not in the solver, so it cannot be removed.
    case unknownConstraint(Constraint)
    /// The variable is already an edit variable.
    case duplicateEditVariable(Variable)
    /// The variable is not an edit variable, so it cannot take suggestions or be removed as one.
    case unknownEditVariable(Variable)
    /// Edit variables must be weaker than required: a suggestion has to be able to lose.
    case requiredEditStrength(Variable)
}
