/// The contract could not run against a backend it was required to check.
public enum ContractServiceError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Under `CI=true`, the environment variable that locates the backend's server is unset.
    case notConfigured(environmentVariable: String)

    public var description: String {
        switch self {
        case .notConfigured(let name):
            return "\(name) is not set, and CI=true requires the contract to run against every backend: "
                + "set it to the server's location."
        }
    }
}
