import TrellisCore

/// Issue 6: `POST /v1/drawer/state`, the next state, its frames and the spring transition.
enum DrawerEndpoint {
    static let path = "/v1/drawer/state"

    static let endpoint = JSONEndpoint(path: path) { json, problems, writer in
        guard let request = DrawerRequest.read(json, &problems) else { return }
        let input = request.input
        if let action = input.action, DrawerReducer.reduce(input.state, action) != input.state {
            guard DrawerTransitionBuilder.travelIsRepresentable(input, &problems) else { return }
        }
        let result = DrawerResolver.resolve(input) { motion in
            DrawerTransitionBuilder.timing(for: motion, input: input, &problems)
        }
        guard let result else { return }
        DrawerResponseWriter.write(result, to: &writer)
    }
}
