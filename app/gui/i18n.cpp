// English -> Korean UI strings.
#include "i18n.h"

#include <cstring>
#include <string_view>
#include <unordered_map>

namespace attnlab::gui {

namespace {

const std::unordered_map<std::string_view, const char*>& korean_table() {
    static const std::unordered_map<std::string_view, const char*> table = {
        {"File", "파일"},
        {"View", "보기"},
        {"Open model...", "모델 열기..."},
        {"Open", "열기"},
        {"Recent files", "최근 파일"},
        {"Save model as...", "모델 다른 이름으로 저장..."},
        {"Save", "저장"},
        {"Save trace", "트레이스 저장"},
        {"Save window as PNG", "창을 PNG로 저장"},
        {"Save view as PNG", "보기를 PNG로 저장"},
        {"Quit", "종료"},
        {"Language", "언어"},
        {"Dark theme", "어두운 테마"},
        {"Presentation mode", "발표 모드"},
        {"Input", "입력"},
        {"Model", "모델"},
        {"Positional encoding", "위치 인코딩"},
        {"Attention", "어텐션"},
        {"Masks", "마스크"},
        {"Residual flow", "잔차 흐름"},
        {"FFN", "피드포워드"},
        {"Output", "출력"},
        {"Stepper", "단계 실행"},
        {"Weights", "가중치"},
        {"Source", "소스"},
        {"Target", "타깃"},
        {"Prompt", "프롬프트"},
        {"Examples", "예문"},
        {"unknown word", "모르는 단어"},
        {"Add padding", "패딩 추가"},
        {"Remove token", "토큰 삭제"},
        {"Encoder self-attention", "인코더 셀프 어텐션"},
        {"Decoder masked self-attention", "디코더 마스크드 셀프 어텐션"},
        {"Cross-attention", "교차 어텐션"},
        {"Layer", "층"},
        {"Head", "헤드"},
        {"Ablate head", "헤드 끄기"},
        {"ablated", "꺼짐"},
        {"Lines", "선"},
        {"Matrix", "행렬"},
        {"Step forward", "다음 단계"},
        {"Step back", "이전 단계"},
        {"Play", "재생"},
        {"Pause", "일시정지"},
        {"Run all", "모두 실행"},
        {"Reset", "처음으로"},
        {"Speed", "속도"},
        {"steps/s", "단계/초"},
        {"Generate next token", "다음 토큰 생성"},
        {"Sample", "샘플링"},
        {"Translate", "번역"},
        {"Temperature", "온도"},
        {"Parameters", "파라미터"},
        {"Preset", "프리셋"},
        {"Seed", "시드"},
        {"Heads", "헤드 수"},
        {"New random model", "새 무작위 모델"},
        {"Path", "경로"},
        {"Bundled models", "내장 모델"},
        {"Not run yet: step forward to compute it.", "아직 계산되지 않았습니다: 다음 단계로 진행하세요."},
        {"Click a cell to toggle it.", "셀을 클릭하면 바뀝니다."},
        {"Reset mask", "마스크 초기화"},
        {"Token", "토큰"},
        {"Hidden activations", "은닉 활성값"},
        {"zeros", "0의 비율"},
        {"Histogram", "히스토그램"},
        {"Parameter", "파라미터"},
        {"Hangul font not found: install fonts-nanum", "한글 글꼴 없음: fonts-nanum을 설치하세요"},
    };
    return table;
}

}  // namespace

const char* tr(bool korean, const char* english) {
    if (!korean) return english;
    const auto& table = korean_table();
    auto it = table.find(english);
    return it == table.end() ? english : it->second;
}

}  // namespace attnlab::gui
