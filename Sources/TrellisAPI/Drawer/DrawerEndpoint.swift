import TrellisCore

/// Issue 6: `POST /v1/drawer/state`, the next state, its frames and the spring transition.
enum DrawerEndpoint {
    static let path = "/v1/drawer/state"

    static let endpoint = JSONEndpoint(path: path) { json, problems, writer in
        guard let request = DrawerRequest.read(json, &problems) else { return }
        let input = request.input
        // Issue 6: DrawerResolver.resolve's steps, with the transition built by DrawerTransitionBuilder.
        let old = input.state
        let new = input.action.map { DrawerReducer.reduce(old, $0) } ?? old
        var transition: DrawerTransition?
        if new != old {
            guard let built = DrawerTransitionBuilder.build(from: old, to: new, input: input, &problems) else { return }
            transition = built
        }
        let result = DrawerResult(
            state: new, changed: new != old, geometry: input.layout.geometry(isPresented: new.isPresented), transition: transition)
        DrawerResponseWriter.write(result, to: &writer)
    }
}
