# Generated from docs/openapi.json by scripts/clients.sh (openapi-python-client): do not edit.
from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.code_language import CodeLanguage
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.code_error import CodeError
    from ..models.code_output_html import CodeOutputHtml
    from ..models.code_output_image import CodeOutputImage
    from ..models.code_output_text import CodeOutputText


T = TypeVar("T", bound="CodeCell")


@_attrs_define
class CodeCell:
    """A code cell as the person sees it.

    Attributes:
        code (str):
        language (CodeLanguage):
        outputs (list[CodeOutputHtml | CodeOutputImage | CodeOutputText]):
        stderr (str):
        stdout (str):
        error (CodeError | None | Unset):
        execution_count (int | None | Unset):
        kernel_restarted (None | str | Unset): Why the kernel was started afresh during the cell.
        timed_out (bool | Unset):
    """

    code: str
    language: CodeLanguage
    outputs: list[CodeOutputHtml | CodeOutputImage | CodeOutputText]
    stderr: str
    stdout: str
    error: CodeError | None | Unset = UNSET
    execution_count: int | None | Unset = UNSET
    kernel_restarted: None | str | Unset = UNSET
    timed_out: bool | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.code_error import CodeError  # noqa: PLC0415
        from ..models.code_output_html import CodeOutputHtml  # noqa: PLC0415
        from ..models.code_output_text import CodeOutputText  # noqa: PLC0415

        code = self.code

        language = self.language.value

        outputs = []
        for outputs_item_data in self.outputs:
            outputs_item: dict[str, Any]
            if isinstance(outputs_item_data, CodeOutputText):
                outputs_item = outputs_item_data.to_dict()
            elif isinstance(outputs_item_data, CodeOutputHtml):
                outputs_item = outputs_item_data.to_dict()
            else:
                outputs_item = outputs_item_data.to_dict()

            outputs.append(outputs_item)

        stderr = self.stderr

        stdout = self.stdout

        error: dict[str, Any] | None | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        elif isinstance(self.error, CodeError):
            error = self.error.to_dict()
        else:
            error = self.error

        execution_count: int | None | Unset
        if isinstance(self.execution_count, Unset):
            execution_count = UNSET
        else:
            execution_count = self.execution_count

        kernel_restarted: None | str | Unset
        if isinstance(self.kernel_restarted, Unset):
            kernel_restarted = UNSET
        else:
            kernel_restarted = self.kernel_restarted

        timed_out = self.timed_out

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "code": code,
                "language": language,
                "outputs": outputs,
                "stderr": stderr,
                "stdout": stdout,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if execution_count is not UNSET:
            field_dict["execution_count"] = execution_count
        if kernel_restarted is not UNSET:
            field_dict["kernel_restarted"] = kernel_restarted
        if timed_out is not UNSET:
            field_dict["timed_out"] = timed_out

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.code_error import CodeError  # noqa: PLC0415
        from ..models.code_output_html import CodeOutputHtml  # noqa: PLC0415
        from ..models.code_output_image import CodeOutputImage  # noqa: PLC0415
        from ..models.code_output_text import CodeOutputText  # noqa: PLC0415

        d = dict(src_dict)
        code = d.pop("code")

        language = CodeLanguage(d.pop("language"))

        outputs = []
        _outputs = d.pop("outputs")
        for outputs_item_data in _outputs:

            def _parse_outputs_item(data: object) -> CodeOutputHtml | CodeOutputImage | CodeOutputText:
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_code_output_type_0 = CodeOutputText.from_dict(data)

                    return componentsschemas_code_output_type_0
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                try:
                    if not isinstance(data, dict):
                        raise TypeError()
                    componentsschemas_code_output_type_1 = CodeOutputHtml.from_dict(data)

                    return componentsschemas_code_output_type_1
                except (TypeError, ValueError, AttributeError, KeyError):
                    pass
                if not isinstance(data, dict):
                    raise TypeError()
                componentsschemas_code_output_type_2 = CodeOutputImage.from_dict(data)

                return componentsschemas_code_output_type_2

            outputs_item = _parse_outputs_item(outputs_item_data)

            outputs.append(outputs_item)

        stderr = d.pop("stderr")

        stdout = d.pop("stdout")

        def _parse_error(data: object) -> CodeError | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                error_type_1 = CodeError.from_dict(data)

                return error_type_1
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CodeError | None | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_execution_count(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        execution_count = _parse_execution_count(d.pop("execution_count", UNSET))

        def _parse_kernel_restarted(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        kernel_restarted = _parse_kernel_restarted(d.pop("kernel_restarted", UNSET))

        timed_out = d.pop("timed_out", UNSET)

        code_cell = cls(
            code=code,
            language=language,
            outputs=outputs,
            stderr=stderr,
            stdout=stdout,
            error=error,
            execution_count=execution_count,
            kernel_restarted=kernel_restarted,
            timed_out=timed_out,
        )

        code_cell.additional_properties = d
        return code_cell

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties
