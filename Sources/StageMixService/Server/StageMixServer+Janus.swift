import Foundation

extension StageMixServer {
    /// `--janus-recordings` and its companions, checked before anything is opened: the callback URL's
    /// form and `--janus-composition`'s document (as a request's `layout` and `options`).
    static func janusSetup(_ janus: JanusConfiguration, policy: CallbackPolicy, inputs: URL) throws
        -> (configuration: JanusConfiguration, settings: CompositionSettings?)
    {
        var janus = janus
        if let callback = janus.callbackURL {
            do throws(Problem) {
                janus.callbackURL = try policy.checkForm(callback, field: "--janus-callback-url").absoluteString
            } catch {
                throw ServiceSetupError(error.detail)
            }
        }
        guard let file = janus.composition else { return (janus, nil) }
        guard let data = FileManager.default.contents(atPath: file.path), data.count <= CompositionRequest.maxBodyBytes else {
            throw ServiceSetupError("--janus-composition \(file.path): no such file, or over \(CompositionRequest.maxBodyBytes) bytes")
        }
        do throws(Problem) {
            return (janus, try CompositionSettings(document: data, tables: InlineTables(directory: inputs)))
        } catch {
            throw ServiceSetupError("--janus-composition \(file.path): \(error.detail)")
        }
    }
}
