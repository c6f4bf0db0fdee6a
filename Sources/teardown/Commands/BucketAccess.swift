import ArgumentParser
import Foundation
import TeardownInbox

/// Where an s3:// address is and the keys to reach it, as every command that takes one finds
/// them: the store from `--endpoint`, `AWS_ENDPOINT_URL_S3` or `AWS_ENDPOINT_URL` (else AWS),
/// the region from `--region` or the AWS settings, the keys from the environment or the
/// shared credentials file. A problem is printed and ends the command.
enum BucketAccess {
    static func resolve(_ address: String, endpoint: String?, region: String?) throws -> (S3Location, S3Credentials) {
        let environment = ProcessInfo.processInfo.environment
        let endpoint = endpoint ?? environment["AWS_ENDPOINT_URL_S3"] ?? environment["AWS_ENDPOINT_URL"]
        switch (S3Location.parse(address, endpoint: endpoint, region: region ?? S3Credentials.region()), S3Credentials.find()) {
        case (.failure(let failure), _), (_, .failure(let failure)):
            Terminal.error(failure.description)
            throw ExitCode.failure
        case (.success(let location), .success(let credentials)):
            return (location, credentials)
        }
    }
}
