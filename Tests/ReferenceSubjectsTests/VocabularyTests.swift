import DeviceCheckModel
import AppAttest
import ConformanceKit
import VectorContract
import KeychainAccessControl
import KeychainModel
import ReferenceSubjects
import LocalAuthorization
import StrictCBOR
import Testing
import TrustSuiteSupport

/// The vector contract (ConformanceKit's `Families/`, which imports no
/// reference module) and the reference models spell each vocabulary alike:
/// every name the loader admits has a model value, and every model value a
/// name, so a subject's mapping can never fail on a loaded vector.
@Suite struct VocabularyTests {
    static func names<T: CaseIterable & RawRepresentable>(_ type: T.Type) -> [String] where T.RawValue == String {
        T.allCases.map(\.rawValue).sorted()
    }

    @Test func contractAndModelsNameTheSameThings() {
        #expect(Self.names(DeviceEventName.self) == Self.names(DeviceEvent.self))
        #expect(Self.names(UserName.self) == Self.names(UserAnswer.self))
        #expect(Self.names(KeychainOperationName.self) == Self.names(KeychainOperation.self))
        #expect(Self.names(DeviceShape.Biometry.self) == Self.names(DeviceState.Biometry.self))
        #expect(Self.names(CBORFamily.Mode.self) == Self.names(CBORMode.self))
        #expect(Self.names(AttestationFamily.Environment.self) == Self.names(AppAttestEnvironment.self))
        #expect(Self.names(MissingLaunchData.self) == Self.names(LaunchPolicy.MissingLaunchData.self))
        #expect(Self.names(DeviceCheckFamily.Op.self) == Self.names(DeviceCheckServer.Endpoint.self))
        #expect(Self.names(LARightFamily.Requirement.self) == Self.names(RightRequirement.self))
    }
}
