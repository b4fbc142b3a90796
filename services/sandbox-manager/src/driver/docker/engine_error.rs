//! How an error of the Docker engine (through bollard) becomes a [`DriverError`]: the
//! engine's absence, a missing image or any other failure.

use bollard::errors::Error as BollardError;

use crate::driver::DriverError;

/// Sorts bollard's errors into what the manager can tell its clients.
pub(super) fn classify(err: BollardError) -> DriverError {
    match err {
        BollardError::DockerResponseServerError { status_code, message } => {
            if status_code == 404 && message.contains("image") {
                DriverError::ImageMissing(message)
            } else {
                DriverError::Engine(format!("{status_code}: {message}"))
            }
        }
        BollardError::RequestTimeoutError
        | BollardError::IOError { .. }
        | BollardError::HyperResponseError { .. }
        | BollardError::HttpClientError { .. }
        | BollardError::SocketNotFoundError(_) => DriverError::EngineUnavailable(err.to_string()),
        other => DriverError::Engine(other.to_string()),
    }
}
