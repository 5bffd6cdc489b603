"""Strings shared by the lessons' blocks: the lesson-settings buttons."""
PREFIX = "lesson."  # every key of STRINGS starts with it (tests/app/test_page_stems.py)
STRINGS = {
    "lesson.sin_button": {"en": "Lesson 003's settings (D = 8)", "zh": "第 003 课的设置（D = 8）"},
    "lesson.sin_help": {
        "en": "d_model 8 and base 10,000, the settings of lesson 003's frequency table and distance printout",
        "zh": "d_model 8、base 10,000：第 003 课频率表和距离输出所用的设置",
    },
    "lesson.rope_button": {"en": "Lesson 003's settings (d = 128, θ = 10,000)", "zh": "第 003 课的设置（d = 128，θ = 10,000）"},
    "lesson.rope_help": {
        "en": "head_dim 128 and rope_theta 10,000, the settings of lesson 003's decay table",
        "zh": "head_dim 128、rope_theta 10,000：第 003 课距离衰减表所用的设置",
    },
    "lesson.tok_button": {"en": "Lesson 001's settings", "zh": "第 001 课的设置"},
    "lesson.tok_help": {
        "en": "'Hello', d_model 8 and torch.randn initialisation (standard deviation 1), as in lesson 001's run.py",
        "zh": "'Hello'、d_model 8、torch.randn 初始化（标准差 1），与第 001 课的 run.py 相同",
    },
    "lesson.train_button": {"en": "Lesson 001's settings", "zh": "第 001 课的设置"},
    "lesson.train_help": {
        "en": (
            "500 steps on the groups a–j and A–J, as lesson 001 states. The lesson gives no d_model, optimiser or "
            "learning rate, so those go back to this reproduction's defaults (16, Adam, 0.01, seed 0)"
        ),
        "zh": (
            "在 a–j 和 A–J 两组上训练 500 步，与第 001 课一致。课里没有给出 d_model、优化器和学习率，"
            "这几项恢复为本复现的默认值（16、Adam、0.01、种子 0）"
        ),
    },
}
