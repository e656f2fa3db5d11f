# The README's Python session (its ```pycon blocks) runs as a doctest against the module tested.
import doctest
import pathlib
import re

README = pathlib.Path(__file__).resolve().parents[2] / "README.md"


def test_readme_python_session():
    text = README.read_text()
    blocks = re.findall(r"^```pycon\n(.*?)^```", text, flags=re.S | re.M)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    examples = 0
    for number, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README.md pycon block {number + 1}", str(README), 0)
        examples += len(test.examples)
        runner.run(test)
    assert examples >= 5  # the session is there (a README without it fails, not passes)
    result = runner.summarize(verbose=False)
    assert result.failed == 0
