import TrellisCore
import TrellisJSON

/// `POST /v1/drawer/state`: the next state, its frames and the spring transition.
enum DrawerStateEndpoint: Endpoint {
    static let path = "/v1/drawer/state"
    static let workingMemoryPerByte = 4

    static func respond(to request: DrawerInput, _ call: inout EndpointCall) {
        let context = call.context
        var motion: [UInt8]?
        let resolved = DrawerResolver.compute(request, meter: &call.meter) { spring, frameRate, maxWork in
            // Recent motions' plans and written members, shared by every request. A refused motion is planned again
            // from rest (to blame its start or its spring): only a transition's plan is written, and it is the last asked.
            let entry = context.drawerPlans.entry(spring, frameRate: frameRate, maxWork: maxWork)
            motion = entry.fragment
            return entry.plan
        }
        switch resolved {
        case .success(let result):
            DrawerStateResponse.write(result, motion: motion, to: &call.json)
        case .failure(let refusal):
            call.problems.add(refusal)
        }
    }
}
