//! Methods for the files routes.

use crate::ToolApiClient;

impl ToolApiClient {}
