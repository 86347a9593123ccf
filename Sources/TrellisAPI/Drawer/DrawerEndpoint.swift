import TrellisCore
import TrellisJSON

/// `POST /v1/drawer/state`: the next state, its frames and the spring transition.
enum DrawerEndpoint: Endpoint {
    static let path = "/v1/drawer/state"

    static func read(_ body: JSONValue, _ problems: inout Problems) -> DrawerRequest? {
        DrawerRequest.read(body, &problems)
    }

    static func respond(to request: DrawerRequest, _ problems: inout Problems, _ json: inout JSONWriter) {
        let input = request.input
        if let action = input.action, DrawerReducer.reduce(input.state, action) != input.state {
            guard DrawerTransitionBuilder.travelIsRepresentable(input, &problems) else { return }
        }
        let result = DrawerResolver.resolve(input) { motion in
            DrawerTransitionBuilder.timing(for: motion, input: input, &problems)
        }
        guard let result else { return }
        DrawerResponseWriter.write(result, to: &json)
    }
}
