//! Methods for the web routes.

use crate::ToolApiClient;

impl ToolApiClient {}
